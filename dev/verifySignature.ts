/**
 * Checking a received `X-Service-Signature` against the exact body bytes (spec §5), as the service
 * does: the one verification of every receiving side here (the simulator, the tests' receiver in
 * test/support/receiver.ts, the benchmarks' receiver). Dev and test code only: the package signs,
 * it never verifies.
 *
 * The HMAC is computed here from the spec with node:crypto, not with the signer
 * (credentials/common/signature.ts): a verifier that asked the signer would accept whatever the
 * signer computes, so a signing bug could never fail a test. The header is read with
 * dev/signatureHeader.ts, whose rules and messages test/dev/signatureHeader.test.ts pins to fixed
 * cases; the 5 minutes are the spec's constant, pinned in test/credentials/common/signature.test.ts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

import type { SignedBody } from '../credentials/common/signature';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_MS } from '../credentials/common/signature';
import type { SignatureFormatCode } from './signatureHeader';
import { SignatureFormatError, parseSignatureHeader } from './signatureHeader';

export type VerificationCode =
	| SignatureFormatCode
	| 'mismatch'
	| 'expired'
	| 'future'
	| 'bad_secret';

/** Why a received request's signature is not valid. */
export class VerificationError extends Error {
	constructor(
		readonly code: VerificationCode,
		message: string,
	) {
		super(message);
		this.name = 'VerificationError';
	}
}

/** Spec §5.4: lowercase hex HMAC-SHA256, keyed with the secret, of `<timestamp>.<body bytes>`. */
function expectedSignature(secret: string, body: SignedBody, timestamp: number): string {
	return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

function safeEqualHex(expected: string, actual: string): boolean {
	const a = Buffer.from(expected, 'utf8');
	const b = Buffer.from(actual, 'utf8');
	return a.length === b.length && timingSafeEqual(a, b);
}

/** The signature header of a received request; a repeated header counts as one list of entries. */
export function receivedSignatureHeader(headers: IncomingHttpHeaders): string | undefined {
	const value = headers[SIGNATURE_HEADER.toLowerCase()];
	return Array.isArray(value) ? value.join(',') : value;
}

export interface VerifyOptions {
	secret: string;
	header: string | null | undefined;
	body: SignedBody;
	/** How long a signature stays valid; the spec's 5 minutes by default. */
	toleranceMs?: number;
	/** Current time in ms; injectable for tests. */
	now?: number;
}

function mismatchMessage(
	secret: string,
	body: SignedBody,
	timestamp: number,
	signatures: string[],
): string {
	const base = 'The signature does not match the body.';
	const trimmed = secret.trim();
	if (trimmed !== secret && trimmed.length > 0) {
		const withTrimmed = expectedSignature(trimmed, body, timestamp);
		if (signatures.some((s) => safeEqualHex(withTrimmed, s))) {
			return `${base} It matches the secret without its surrounding whitespace: remove the whitespace from the stored secret.`;
		}
	}
	return (
		`${base} Check that the sender uses this automation's signing secret (no surrounding whitespace), ` +
		'signs "<t>.<body>" with the same t as in the header, and sends the signed text byte for byte ' +
		'(was the body re-serialized or re-encoded after signing?).'
	);
}

/**
 * Checks a received request. Valid while `now - t < tolerance`: a signature is expired exactly at
 * t + 5 minutes. Rejects timestamps more than the tolerance in the future. Returns the timestamp
 * and the signature that matched.
 */
export function verifySignature(options: VerifyOptions): { timestamp: number; signature: string } {
	const { secret, header, body } = options;
	const toleranceMs = options.toleranceMs ?? SIGNATURE_TOLERANCE_MS;
	const now = options.now ?? Date.now();
	if (typeof secret !== 'string' || secret.length === 0) {
		throw new VerificationError('bad_secret', 'No signing secret to verify with.');
	}
	let parsed: ReturnType<typeof parseSignatureHeader>;
	try {
		parsed = parseSignatureHeader(header);
	} catch (error) {
		if (error instanceof SignatureFormatError)
			throw new VerificationError(error.code, error.message);
		throw error;
	}
	const { timestamp, signatures } = parsed;

	const expected = expectedSignature(secret, body, timestamp);
	let matched = false;
	for (const candidate of signatures) {
		// No early exit: every candidate costs the same.
		if (safeEqualHex(expected, candidate)) matched = true;
	}
	if (!matched) {
		throw new VerificationError('mismatch', mismatchMessage(secret, body, timestamp, signatures));
	}

	const age = now - timestamp;
	if (age >= toleranceMs) {
		throw new VerificationError(
			'expired',
			`The signature expired: it was made ${Math.round(age / 1000)} s ago and is valid for ` +
				`${toleranceMs / 1000} s. Sign each request just before sending it, and check the sender's clock.`,
		);
	}
	if (-age > toleranceMs) {
		throw new VerificationError(
			'future',
			`The signature timestamp is ${Math.round(-age / 1000)} s in the future (more than ` +
				`${toleranceMs / 1000} s). The sender's clock is ahead: synchronise it (NTP).`,
		);
	}
	return { timestamp, signature: expected };
}
