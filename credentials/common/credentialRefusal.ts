/**
 * The credential will not sign or send: its webhook URL is malformed, its secret cannot sign, or a
 * request is not one it signs. The message says how to fix it; nothing was sent.
 */
export class CredentialRefusal extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'CredentialRefusal';
	}
}
