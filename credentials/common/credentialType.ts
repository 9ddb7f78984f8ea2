/** The credential type's name: n8n's key for it in nodes, workflows and the request helper. */
export const CREDENTIAL_TYPE = 'serviceWebhookSecretApi';
