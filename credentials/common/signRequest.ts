/**
 * What the credential's `authenticate` does to an outgoing request: fix the body bytes once, sign
 * exactly those bytes, and make sure nothing can carry the signed request elsewhere.
 */
import type { ICredentialDataDecryptedObject, IHttpRequestOptions } from 'n8n-workflow';

import { credentialRefusal } from './triggerError';
import { isPlainObject } from './plainObject';
import { SIGNATURE_HEADER, buildSignatureHeader, describeSecretProblem } from './signature';
import { parseWebhookUrl } from './webhookUrl';

/**
 * The bytes that will go on the wire. A Buffer is sent by n8n's HTTP helper exactly as it is;
 * a string or an object would be re-encoded on the way, so both become a Buffer here, once.
 */
function bodyBytes(body: IHttpRequestOptions['body']): Buffer {
	if (body === undefined || body === null || body === '') return Buffer.alloc(0);
	if (Buffer.isBuffer(body)) return body;
	if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	if (Array.isArray(body) || isPlainObject(body)) {
		return Buffer.from(JSON.stringify(body), 'utf8');
	}
	throw credentialRefusal(
		'This request body cannot be signed byte for byte (form data, URL-encoded, binary or a stream). ' +
			'Send the body as JSON or as raw text.',
	);
}

function sameTarget(requestUrl: unknown, credentialUrl: string): boolean {
	if (requestUrl === credentialUrl) return true; // The node's case: no second parse.
	try {
		return parseWebhookUrl(requestUrl).url === credentialUrl;
	} catch {
		return false;
	}
}

/**
 * The legacy request shape n8n still hands to credentials from `requestWithAuthentication` (the
 * HTTP Request node uses it): target in `uri`, redirects in `followRedirect`/`followAllRedirects`,
 * form bodies in `form`/`formData`.
 */
interface LegacyRequestFields {
	uri?: string;
	form?: unknown;
	formData?: unknown;
	followRedirect?: boolean;
	followAllRedirects?: boolean;
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Signs the request in place (and returns it): the node reads the header back to learn the
 * signature timestamp. A fresh timestamp is taken on every call, so every attempt is re-signed.
 */
export function signRequest(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): IHttpRequestOptions {
	const secret = credentials.signingSecret;
	const secretProblem = describeSecretProblem(secret);
	if (secretProblem) throw credentialRefusal(secretProblem);
	const target = parseWebhookUrl(credentials.webhookUrl);
	const legacy = requestOptions as IHttpRequestOptions & LegacyRequestFields;
	const urlKey = requestOptions.url === undefined && legacy.uri !== undefined ? 'uri' : 'url';
	if (!sameTarget(legacy[urlKey], target.url)) {
		throw credentialRefusal(
			'This credential only signs requests to its own webhook URL. Set the request URL to the ' +
				"credential's webhook URL, or use the credential of the automation you want to trigger.",
		);
	}

	if (requestOptions.qs && Object.keys(requestOptions.qs).length > 0) {
		throw credentialRefusal(
			'The webhook URL takes no query parameters: remove them from the request (the signature covers the body only).',
		);
	}
	if (legacy.form !== undefined || legacy.formData !== undefined) {
		throw credentialRefusal(
			'Form bodies cannot be signed byte for byte. Send the body as JSON (the service expects application/json).',
		);
	}

	const headers: Record<string, unknown> = {};
	let contentType: unknown;
	for (const [name, value] of Object.entries(requestOptions.headers ?? {})) {
		const lower = name.toLowerCase();
		// Drop any stale signature (from an earlier attempt) whatever its letter case.
		if (lower === SIGNATURE_HEADER.toLowerCase()) continue;
		if (lower === 'content-type') contentType = value;
		headers[name] = value;
	}
	if (contentType === undefined) {
		headers['Content-Type'] = 'application/json';
	} else if (typeof contentType !== 'string' || !JSON_CONTENT_TYPE.test(contentType)) {
		throw credentialRefusal(
			`The service only accepts Content-Type application/json, not "${String(contentType)}". Send the body as JSON.`,
		);
	}

	const bytes = bodyBytes(requestOptions.body);
	headers[SIGNATURE_HEADER] = buildSignatureHeader(secret as string, bytes);

	legacy[urlKey] = target.url;
	requestOptions.body = bytes;
	requestOptions.headers = headers as IHttpRequestOptions['headers'];
	// A redirect would re-send the signed request to wherever the Location points.
	requestOptions.disableFollowRedirect = true;
	requestOptions.sendCredentialsOnCrossOriginRedirect = false;
	legacy.followRedirect = false;
	legacy.followAllRedirects = false;
	return requestOptions;
}
