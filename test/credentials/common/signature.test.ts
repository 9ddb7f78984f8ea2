import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import {
	SIGNATURE_HEADER,
	SIGNATURE_SCHEME,
	SIGNATURE_TOLERANCE_MS,
	buildSignatureHeader,
	computeSignature,
	describeSecretProblem,
	readSignatureHeader,
} from '../../../credentials/common/signature';
import { SECRET, T, VECTORS } from '../../support/signatureVectors';
import { TriggerError } from '../../../credentials/common/triggerError';

describe('§5.1–5.2 header name and format', () => {
	it('names the header X-Service-Signature and the scheme v1', () => {
		expect(SIGNATURE_HEADER).toBe('X-Service-Signature');
		expect(SIGNATURE_SCHEME).toBe('v1');
	});

	it('builds t=<timestamp>,v1=<signature>', () => {
		expect(buildSignatureHeader(SECRET, VECTORS[0].body, T)).toBe(`t=${T},v1=${VECTORS[0].hex}`);
	});

	it('defaults the timestamp to now, as an integer count of milliseconds', () => {
		const before = Date.now();
		const header = buildSignatureHeader(SECRET, '{}');
		const after = Date.now();
		const { timestamp } = readSignatureHeader(header);
		expect(Number.isInteger(timestamp)).toBe(true);
		expect(timestamp).toBeGreaterThanOrEqual(before);
		expect(timestamp).toBeLessThanOrEqual(after);
	});
});

describe('§5.3–5.4 signature = lowercase hex HMAC-SHA256(secret, "<t>.<body>") — fixed vectors', () => {
	for (const vector of VECTORS) {
		it(`matches openssl for ${vector.name}`, () => {
			expect(computeSignature(SECRET, vector.body, T)).toBe(vector.hex);
			expect(computeSignature(SECRET, Buffer.from(vector.body, 'utf8'), T)).toBe(vector.hex);
		});
	}

	it('signs bytes and the equivalent UTF-8 string identically, for a 10 MB body too', () => {
		const text = `{"data":{"message":"${'é🚀'.repeat(1_700_000)}"}}`;
		const bytes = Buffer.from(text, 'utf8');
		expect(bytes.length).toBeGreaterThan(10_000_000);
		expect(computeSignature(SECRET, text, T)).toBe(computeSignature(SECRET, bytes, T));
		expect(computeSignature(SECRET, new Uint8Array(bytes), T)).toBe(
			createHmac('sha256', SECRET)
				.update(Buffer.concat([Buffer.from(`${T}.`), bytes]))
				.digest('hex'),
		);
	});

	it('rejects a timestamp that is not a non-negative integer', () => {
		for (const bad of [1.5, -1, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) {
			expect(() => computeSignature(SECRET, '{}', bad)).toThrow(TriggerError);
			expect(() => computeSignature(SECRET, '{}', bad)).toThrow(/milliseconds/);
		}
	});
});

describe('§5.5 the same timestamp is used in the header and in the signed message', () => {
	it('the header t verifies against a message built with that t, and no other', () => {
		const body = '{"data":{"message":"same t"}}';
		const header = buildSignatureHeader(SECRET, body);
		const { timestamp, signature } = readSignatureHeader(header);
		const independent = createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex');
		expect(signature).toBe(independent);
		expect(computeSignature(SECRET, body, timestamp + 1)).not.toBe(independent);
	});
});

describe('§5.7 a signature expires 5 minutes after its timestamp', () => {
	it('the tolerance is 300 000 ms', () => {
		expect(SIGNATURE_TOLERANCE_MS).toBe(300_000);
	});
});

describe('secret hygiene (surrounding whitespace is rejected, never trimmed silently)', () => {
	it('accepts a plain secret', () => {
		expect(describeSecretProblem('whsec_abc123')).toBeUndefined();
	});

	it('explains empty, blank and whitespace-padded secrets without echoing them', () => {
		expect(describeSecretProblem('')).toMatch(/empty/);
		expect(describeSecretProblem(undefined)).toMatch(/empty/);
		expect(describeSecretProblem(' \n')).toMatch(/only whitespace/);
		const padded = describeSecretProblem(' s3cr3t-value\n');
		expect(padded).toMatch(/starts or ends with whitespace/);
		expect(padded).not.toContain('s3cr3t-value');
	});

	it('signs with the secret exactly as given (a padded secret gives another signature)', () => {
		expect(computeSignature(` ${SECRET}`, '{}', T)).not.toBe(computeSignature(SECRET, '{}', T));
	});
});
