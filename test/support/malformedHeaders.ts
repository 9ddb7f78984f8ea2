import { expect } from 'vitest';

/**
 * Headers that break the X-Service-Signature format, each with the code and the words of the rule
 * it breaks: the parser (test/dev/signatureHeader.test.ts) and the verifier
 * (test/dev/verifySignature.test.ts) must refuse each with that message.
 */
export type MalformedHeaderCase = [
	name: string,
	header: string | undefined,
	code: string,
	text: RegExp,
];

/** `good` is a valid v1 signature, `T` its timestamp. */
export function malformedHeaders(good: string, T: number): MalformedHeaderCase[] {
	return [
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
}

/** Expects `fn` to throw an error of `type` with this `code` and a message matching `text`. */
export function expectCodedError(
	fn: () => unknown,
	type: abstract new (...args: never[]) => Error & { code: string },
	code: string,
	text: RegExp,
): void {
	let caught: unknown;
	try {
		fn();
	} catch (error) {
		caught = error;
	}
	expect(caught).toBeInstanceOf(type);
	expect((caught as { code: string }).code).toBe(code);
	expect((caught as Error).message).toMatch(text);
}
