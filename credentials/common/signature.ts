/**
 * The one place that knows the `X-Service-Signature` scheme (spec §5):
 *   header  = `t=<ms since epoch>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<body>")>`
 *   valid for 5 minutes after <t>.
 * The credential signs with it and the node reads the timestamp back with its parser; nothing else
 * in nodes/ or credentials/ computes an HMAC. Verification lives with the simulator
 * (dev/verifySignature.ts), which builds on this module; it is never shipped.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_SCHEME = 'v1';
/** Spec §5.7 / §8: a signature expires 5 minutes after its timestamp. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/** The exact body text: a string is signed as its UTF-8 bytes, bytes are signed as they are. */
export type SignedBody = string | Uint8Array;

/** Why a header or a timestamp does not follow the format. */
export type SignatureFormatCode = 'missing' | 'malformed' | 'no_signature';

export class SignatureFormatError extends Error {
	constructor(
		readonly code: SignatureFormatCode,
		message: string,
	) {
		super(message);
		this.name = 'SignatureFormatError';
	}
}

const HEX_SIGNATURE = /^[0-9a-f]{64}$/;
const DIGITS = /^[0-9]+$/;
// Anything below 10^11 ms is 1973 or earlier, but is a plausible epoch count in seconds.
const SMALLEST_MS_TIMESTAMP = 1e11;

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
		throw new SignatureFormatError(
			'malformed',
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

export interface ParsedSignatureHeader {
	timestamp: number;
	/** Every `v1` entry, in order (several while a secret is being rotated). */
	signatures: string[];
}

function malformed(detail: string): SignatureFormatError {
	return new SignatureFormatError(
		'malformed',
		`Malformed ${SIGNATURE_HEADER} header: ${detail}. Expected "t=<milliseconds>,v1=<64 lowercase hex characters>".`,
	);
}

/**
 * Parses a header value. Entry order does not matter, several `v1` entries are kept, entries of
 * other schemes are ignored; everything else that deviates from the format is rejected.
 */
export function parseSignatureHeader(value: string | null | undefined): ParsedSignatureHeader {
	if (value === undefined || value === null || value === '') {
		throw new SignatureFormatError(
			'missing',
			`The ${SIGNATURE_HEADER} header is missing. Each request must carry "t=<milliseconds>,v1=<signature>".`,
		);
	}
	if (/\s/.test(value)) {
		throw malformed('it contains whitespace, which the format does not allow');
	}
	let timestamp: number | undefined;
	const signatures: string[] = [];
	for (const entry of value.split(',')) {
		const eq = entry.indexOf('=');
		if (eq <= 0) {
			throw malformed(`entry "${entry}" is not of the form key=value`);
		}
		const key = entry.slice(0, eq);
		const entryValue = entry.slice(eq + 1);
		if (key === 't') {
			if (timestamp !== undefined) throw malformed('it has more than one t= entry');
			if (!DIGITS.test(entryValue)) {
				throw malformed(`the timestamp "${entryValue}" is not a whole number of milliseconds`);
			}
			timestamp = Number(entryValue);
			if (!Number.isSafeInteger(timestamp)) throw malformed('the timestamp is too large');
			if (timestamp < SMALLEST_MS_TIMESTAMP) {
				throw malformed(
					`the timestamp ${entryValue} looks like seconds, expected milliseconds since the Unix epoch`,
				);
			}
		} else if (key === SIGNATURE_SCHEME) {
			if (!HEX_SIGNATURE.test(entryValue)) {
				const hint = /^[0-9a-fA-F]{64}$/.test(entryValue)
					? 'it must be lowercase hex'
					: `it must be 64 hex characters, got ${entryValue.length} characters`;
				throw malformed(`the v1 signature is not valid: ${hint}`);
			}
			signatures.push(entryValue);
		}
		// Other schemes (v0, v2, …) are not ours to judge.
	}
	if (timestamp === undefined) throw malformed('the t=<milliseconds> entry is missing');
	if (signatures.length === 0) {
		throw new SignatureFormatError(
			'no_signature',
			`The ${SIGNATURE_HEADER} header has no ${SIGNATURE_SCHEME}= signature. Expected "t=<milliseconds>,v1=<signature>".`,
		);
	}
	return { timestamp, signatures };
}
