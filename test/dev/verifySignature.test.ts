/**
 * The simulator's verification (dev/verifySignature.ts): right on its own (the openssl vectors), and
 * against what the signing module makes: the round trip the service performs, byte for byte, with
 * expiry and every malformed header.
 */
import { describe, expect, it } from 'vitest';

import { buildSignatureHeader, computeSignature } from '../../credentials/common/signature';
import { VerificationError, verifySignature } from '../../dev/verifySignature';
import { expectCodedError, malformedHeaders } from '../support/malformedHeaders';
import { SECRET, T, VECTORS } from '../support/signatureVectors';

function expectVerificationError(fn: () => unknown, code: string, text: RegExp): void {
	expectCodedError(fn, VerificationError, code, text);
}

describe('§5.4 the verifier agrees with openssl, not only with the signer', () => {
	for (const vector of VECTORS) {
		it(`accepts the openssl signature of ${vector.name}, and no other`, () => {
			const header = `t=${T},v1=${vector.hex}`;
			expect(verifySignature({ secret: SECRET, header, body: vector.body, now: T })).toEqual({
				timestamp: T,
				signature: vector.hex,
			});
			expectVerificationError(
				() => verifySignature({ secret: SECRET, header, body: `${vector.body} `, now: T }),
				'mismatch',
				/does not match/,
			);
		});
	}
});

describe('§5.6 the bytes verified are the bytes signed: round trip and single-byte changes', () => {
	const body = Buffer.from('{"data":{"message":"Ünïcode ok","context":{"n":1}}}', 'utf8');
	const header = buildSignatureHeader(SECRET, body, T);

	it('a signed request verifies', () => {
		expect(verifySignature({ secret: SECRET, header, body, now: T + 1000 })).toEqual({
			timestamp: T,
			signature: header.split('v1=')[1],
		});
	});

	it('every single-byte change to the body fails', () => {
		for (let i = 0; i < body.length; i++) {
			const changed = Buffer.from(body);
			changed[i] ^= 0x01;
			expectVerificationError(
				() => verifySignature({ secret: SECRET, header, body: changed, now: T }),
				'mismatch',
				/re-serialized/,
			);
		}
	});

	it('a re-serialized body (same JSON, other bytes) fails', () => {
		const reserialized = JSON.stringify(JSON.parse(body.toString()), null, 1);
		expectVerificationError(
			() => verifySignature({ secret: SECRET, header, body: reserialized, now: T }),
			'mismatch',
			/byte for byte/,
		);
	});

	it('every single-digit change to the timestamp fails', () => {
		const digits = String(T);
		for (let i = 0; i < digits.length; i++) {
			const d = (Number(digits[i]) + 1) % 10;
			const changedT = digits.slice(0, i) + d + digits.slice(i + 1);
			const forged = header.replace(`t=${T}`, `t=${changedT}`);
			expect(() => verifySignature({ secret: SECRET, header: forged, body, now: T })).toThrow(
				VerificationError,
			);
		}
	});

	it('every single-character change to the signature fails', () => {
		const sig = header.split('v1=')[1];
		for (let i = 0; i < sig.length; i++) {
			const c = sig[i] === '0' ? '1' : '0';
			const forged = `t=${T},v1=${sig.slice(0, i)}${c}${sig.slice(i + 1)}`;
			expectVerificationError(
				() => verifySignature({ secret: SECRET, header: forged, body, now: T }),
				'mismatch',
				/does not match/,
			);
		}
	});

	it('another secret fails', () => {
		expectVerificationError(
			() => verifySignature({ secret: 'other_secret', header, body, now: T }),
			'mismatch',
			/signing secret/,
		);
	});
});

describe('§5.7 a signature expires 5 minutes after its timestamp', () => {
	const body = '{"data":{"message":"expiry"}}';
	const header = buildSignatureHeader(SECRET, body, T);

	it('is valid 1 ms before the 5 minutes are over', () => {
		expect(verifySignature({ secret: SECRET, header, body, now: T + 299_999 }).timestamp).toBe(T);
	});

	it('is expired exactly at 5 minutes and after', () => {
		for (const now of [T + 300_000, T + 300_001, T + 3_600_000]) {
			expectVerificationError(
				() => verifySignature({ secret: SECRET, header, body, now }),
				'expired',
				/expired.*clock/,
			);
		}
	});

	it('accepts a clock up to 5 minutes behind the sender and rejects one further behind', () => {
		expect(verifySignature({ secret: SECRET, header, body, now: T - 300_000 }).timestamp).toBe(T);
		expectVerificationError(
			() => verifySignature({ secret: SECRET, header, body, now: T - 300_001 }),
			'future',
			/in the future.*clock is ahead/,
		);
	});

	it('honours a custom tolerance', () => {
		expectVerificationError(
			() => verifySignature({ secret: SECRET, header, body, now: T + 1_000, toleranceMs: 1_000 }),
			'expired',
			/valid for 1 s/,
		);
	});
});

describe('a malformed header is refused with the message of the format rule it breaks', () => {
	const body = '{"data":{"message":"rotation"}}';
	const good = computeSignature(SECRET, body, T);
	const other = computeSignature('previous_secret', body, T);

	it('verifies when one of several v1 entries matches (secret rotation)', () => {
		for (const header of [`t=${T},v1=${other},v1=${good}`, `t=${T},v1=${good},v1=${other}`]) {
			expect(verifySignature({ secret: SECRET, header, body, now: T }).timestamp).toBe(T);
		}
	});

	const malformedCases = malformedHeaders(good, T);
	for (const [name, header, code, text] of malformedCases) {
		it(`rejects ${name} with its own message`, () => {
			expectVerificationError(
				() => verifySignature({ secret: SECRET, header, body, now: T }),
				code,
				text,
			);
		});
	}
});

describe('secret hygiene on the verifying side', () => {
	it('the verifier says when the stored secret only differs by surrounding whitespace', () => {
		const body = '{}';
		const header = buildSignatureHeader(SECRET, body, T);
		expectVerificationError(
			() => verifySignature({ secret: `${SECRET}\n`, header, body, now: T }),
			'mismatch',
			/without its surrounding whitespace/,
		);
	});

	it('refuses to verify without a secret', () => {
		expectVerificationError(
			() =>
				verifySignature({ secret: '', header: `t=${T},v1=${'0'.repeat(64)}`, body: '', now: T }),
			'bad_secret',
			/No signing secret/,
		);
	});
});
