/**
 * The one place that knows the `X-Service-Signature` scheme (spec §5):
 *   header  = `t=<ms since epoch>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<body>")>`
 *   valid for 5 minutes after <t>.
 * The credential signs with it and the node reads the timestamp back from the header it built;
 * nothing else in nodes/ or credentials/ computes an HMAC. Reading a header someone else built, and
 * verifying it, live with the simulator (dev/signatureHeader.ts, dev/verifySignature.ts): the
 * package signs, it never verifies.
 */
import { createHmac } from 'node:crypto';

import { credentialRefusal } from './triggerError';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_SCHEME = 'v1';
/** Spec §5.7 / §8: a signature expires 5 minutes after its timestamp. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The exact body text: a string is signed as its UTF-8 bytes, bytes are signed as they are. */
export type SignedBody = string | Uint8Array;

/** Why a secret cannot sign, or undefined when it can. Never includes the secret itself. */
export function describeSecretProblem(secret: unknown): string | undefined {
	if (typeof secret !== 'string' || secret.length === 0) {
		return "The signing secret is empty. Copy it from the automation's Webhook details into the credential.";
	}
	if (secret.trim().length === 0) {
		return "The signing secret is only whitespace. Copy it again from the automation's Webhook details.";
	}
	if (secret.trim() !== secret) {
		return (
			'The signing secret starts or ends with whitespace (usually a copy-paste slip). ' +
			'Paste it again into the credential without the surrounding spaces or line breaks.'
		);
	}
	return undefined;
}

function assertTimestamp(timestampMs: number): void {
	if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) {
		throw credentialRefusal(
			`The signature timestamp must be a whole, non-negative number of milliseconds, got ${String(timestampMs)}.`,
		);
	}
}

/** Lowercase hex HMAC-SHA256 of `<timestampMs>.<body>`, keyed with the secret exactly as given. */
export function computeSignature(secret: string, body: SignedBody, timestampMs: number): string {
	assertTimestamp(timestampMs);
	// Two updates instead of concatenating: a 10 MB body is hashed in place, never copied.
	return createHmac('sha256', secret).update(`${timestampMs}.`).update(body).digest('hex');
}

/** The header value `t=<timestamp>,v1=<signature>`; the timestamp defaults to now. */
export function buildSignatureHeader(
	secret: string,
	body: SignedBody,
	timestampMs: number = Date.now(),
): string {
	return `t=${timestampMs},${SIGNATURE_SCHEME}=${computeSignature(secret, body, timestampMs)}`;
}

/** The timestamp and signature of a header `buildSignatureHeader` made (`t=<ms>,v1=<hex>`). */
export function readSignatureHeader(header: string): { timestamp: number; signature: string } {
	const [t, v1] = header.split(',');
	return {
		timestamp: Number(t.slice('t='.length)),
		signature: v1.slice(`${SIGNATURE_SCHEME}=`.length),
	};
}
