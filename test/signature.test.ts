import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import {
	SIGNATURE_HEADER,
	SIGNATURE_SCHEME,
	SIGNATURE_TOLERANCE_MS,
	SignatureError,
	buildSignatureHeader,
	computeSignature,
	describeSecretProblem,
	parseSignatureHeader,
	verifySignature,
} from '../credentials/common/signature';

const T = 1_700_000_000_000;
const SECRET = 'test_secret';

// Expected digests computed outside this module with:
//   printf '%s' "<t>.<body>" | openssl dgst -sha256 -hmac test_secret
const VECTORS = [
	{
		name: 'the spec example body',
		body: '{"data":{"message":"Hello from webhook"}}',
		hex: 'c97ed1a284f3c3282c2a2d0c0dca57f61951b5752b348256892c73bc421a75e0',
	},
	{
		name: 'a body with é, a BMP symbol and an astral emoji (UTF-8 bytes)',
		body: '{"data":{"message":"Café ☕ 🚀"}}',
		hex: '8358a51223be4cff6b9defe6aba2f1d48c634e84b85d3acf14c7c8e8780bd764',
	},
	{
		name: 'an empty body (the message is "<t>." alone)',
		body: '',
		hex: '8debca3e87e03ee851775e2f682fb0eb64105c999ef9017a9ec36473eebf39e8',
	},
	{
		name: 'a body with a trailing newline (the newline is signed)',
		body: '{"data":{"message":"x"}}\n',
		hex: '8fd7f3189af3ba5a1b50839a3263b48585eccda831d3741f3fb3f492d4247243',
	},
	{
		name: 'a 1 MiB body',
		body: `{"data":{"message":"${'a'.repeat(1024 * 1024)}"}}`,
		hex: 'b2e5b09b8aa247c98cbdd5a9abd40ce072e3ccb4b0fa7d5473750c5cf2e86e9f',
	},
];

function expectSignatureError(fn: () => unknown, code: string, text: RegExp): void {
	let caught: unknown;
	try {
		fn();
	} catch (error) {
		caught = error;
	}
	expect(caught).toBeInstanceOf(SignatureError);
	expect((caught as SignatureError).code).toBe(code);
	expect((caught as SignatureError).message).toMatch(text);
}

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
		const { timestamp } = parseSignatureHeader(header);
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
			expectSignatureError(() => computeSignature(SECRET, '{}', bad), 'malformed', /milliseconds/);
		}
	});
});

describe('§5.5 the same timestamp is used in the header and in the signed message', () => {
	it('the header t verifies against a message built with that t, and no other', () => {
		const body = '{"data":{"message":"same t"}}';
		const header = buildSignatureHeader(SECRET, body);
		const { timestamp, signatures } = parseSignatureHeader(header);
		const independent = createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex');
		expect(signatures).toEqual([independent]);
		expect(computeSignature(SECRET, body, timestamp + 1)).not.toBe(independent);
	});
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
			expectSignatureError(
				() => verifySignature({ secret: SECRET, header, body: changed, now: T }),
				'mismatch',
				/re-serialized/,
			);
		}
	});

	it('a re-serialized body (same JSON, other bytes) fails', () => {
		const reserialized = JSON.stringify(JSON.parse(body.toString()), null, 1);
		expectSignatureError(
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
				SignatureError,
			);
		}
	});

	it('every single-character change to the signature fails', () => {
		const sig = header.split('v1=')[1];
		for (let i = 0; i < sig.length; i++) {
			const c = sig[i] === '0' ? '1' : '0';
			const forged = `t=${T},v1=${sig.slice(0, i)}${c}${sig.slice(i + 1)}`;
			expectSignatureError(
				() => verifySignature({ secret: SECRET, header: forged, body, now: T }),
				'mismatch',
				/does not match/,
			);
		}
	});

	it('another secret fails', () => {
		expectSignatureError(
			() => verifySignature({ secret: 'other_secret', header, body, now: T }),
			'mismatch',
			/signing secret/,
		);
	});
});

describe('§5.7 a signature expires 5 minutes after its timestamp', () => {
	const body = '{"data":{"message":"expiry"}}';
	const header = buildSignatureHeader(SECRET, body, T);

	it('the tolerance is 300 000 ms', () => {
		expect(SIGNATURE_TOLERANCE_MS).toBe(300_000);
	});

	it('is valid 1 ms before the 5 minutes are over', () => {
		expect(verifySignature({ secret: SECRET, header, body, now: T + 299_999 }).timestamp).toBe(T);
	});

	it('is expired exactly at 5 minutes and after', () => {
		for (const now of [T + 300_000, T + 300_001, T + 3_600_000]) {
			expectSignatureError(
				() => verifySignature({ secret: SECRET, header, body, now }),
				'expired',
				/expired.*clock/,
			);
		}
	});

	it('accepts a clock up to 5 minutes behind the sender and rejects one further behind', () => {
		expect(verifySignature({ secret: SECRET, header, body, now: T - 300_000 }).timestamp).toBe(T);
		expectSignatureError(
			() => verifySignature({ secret: SECRET, header, body, now: T - 300_001 }),
			'future',
			/in the future.*clock is ahead/,
		);
	});

	it('honours a custom tolerance', () => {
		expectSignatureError(
			() => verifySignature({ secret: SECRET, header, body, now: T + 1_000, toleranceMs: 1_000 }),
			'expired',
			/valid for 1 s/,
		);
	});
});

describe('header parser: tolerant of order and rotation, strict about values', () => {
	const body = '{"data":{"message":"rotation"}}';
	const good = computeSignature(SECRET, body, T);
	const other = computeSignature('previous_secret', body, T);

	it('accepts entries in any order', () => {
		expect(parseSignatureHeader(`v1=${good},t=${T}`)).toEqual({ timestamp: T, signatures: [good] });
	});

	it('verifies when one of several v1 entries matches (secret rotation)', () => {
		for (const header of [`t=${T},v1=${other},v1=${good}`, `t=${T},v1=${good},v1=${other}`]) {
			expect(verifySignature({ secret: SECRET, header, body, now: T }).timestamp).toBe(T);
		}
	});

	it('ignores entries of unknown schemes', () => {
		expect(parseSignatureHeader(`t=${T},v0=abc,v2=xyz,v1=${good}`).signatures).toEqual([good]);
	});

	const malformedCases: Array<[string, string | undefined, string, RegExp]> = [
		['an absent header', undefined, 'missing', /header is missing/],
		['an empty header', '', 'missing', /header is missing/],
		['no timestamp', `v1=${good}`, 'malformed', /t=<milliseconds> entry is missing/],
		['no v1 entry', `t=${T}`, 'no_signature', /has no v1= signature/],
		['only an unknown scheme', `t=${T},v0=${good}`, 'no_signature', /has no v1= signature/],
		['spaces after the comma', `t=${T}, v1=${good}`, 'malformed', /whitespace/],
		['an entry without "="', `t=${T},v1`, 'malformed', /not of the form key=value/],
		['an empty key', `t=${T},=${good}`, 'malformed', /not of the form key=value/],
		['uppercase hex', `t=${T},v1=${good.toUpperCase()}`, 'malformed', /lowercase hex/],
		['a short signature', `t=${T},v1=${good.slice(2)}`, 'malformed', /64 hex characters, got 62/],
		['a non-hex signature', `t=${T},v1=${'g'.repeat(64)}`, 'malformed', /64 hex characters/],
		['a seconds timestamp', `t=1700000000,v1=${good}`, 'malformed', /looks like seconds/],
		['a fractional timestamp', `t=1700000000000.5,v1=${good}`, 'malformed', /whole number/],
		['a negative timestamp', `t=-1700000000000,v1=${good}`, 'malformed', /whole number/],
		['an empty timestamp', `t=,v1=${good}`, 'malformed', /whole number/],
		['two timestamps', `t=${T},t=${T},v1=${good}`, 'malformed', /more than one t=/],
	];
	for (const [name, header, code, text] of malformedCases) {
		it(`rejects ${name} with its own message`, () => {
			expectSignatureError(() => parseSignatureHeader(header), code, text);
			expectSignatureError(
				() => verifySignature({ secret: SECRET, header, body, now: T }),
				code,
				text,
			);
		});
	}
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

	it('the verifier says when the stored secret only differs by surrounding whitespace', () => {
		const body = '{}';
		const header = buildSignatureHeader(SECRET, body, T);
		expectSignatureError(
			() => verifySignature({ secret: `${SECRET}\n`, header, body, now: T }),
			'mismatch',
			/without its surrounding whitespace/,
		);
	});

	it('refuses to verify without a secret', () => {
		expectSignatureError(
			() =>
				verifySignature({ secret: '', header: `t=${T},v1=${'0'.repeat(64)}`, body: '', now: T }),
			'bad_secret',
			/No signing secret/,
		);
	});
});
