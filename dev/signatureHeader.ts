/**
 * Reading an `X-Service-Signature` header someone else built, as the service does: tolerant of entry
 * order, several `v1` entries (a secret being rotated) and other schemes, strict about everything
 * else, with a message per deviation. Dev and test code only (dev/verifySignature.ts); the package
 * reads back only the headers it built itself (credentials/common/signature.ts).
 */
import { SIGNATURE_HEADER, SIGNATURE_SCHEME } from '../credentials/common/signature';

/** Why a header does not follow the format. */
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
