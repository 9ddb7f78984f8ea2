import { describe, expect, it } from 'vitest';

import { computeSignature } from '../../credentials/common/signature';
import { SignatureFormatError, parseSignatureHeader } from '../../dev/signatureHeader';
import { expectCodedError, malformedHeaders } from '../support/malformedHeaders';
import { SECRET, T } from '../support/signatureVectors';

function expectFormatError(fn: () => unknown, code: string, text: RegExp): void {
	expectCodedError(fn, SignatureFormatError, code, text);
}

describe('header parser: tolerant of order and rotation, strict about values', () => {
	const body = '{"data":{"message":"rotation"}}';
	const good = computeSignature(SECRET, body, T);
	const other = computeSignature('previous_secret', body, T);

	it('accepts entries in any order', () => {
		expect(parseSignatureHeader(`v1=${good},t=${T}`)).toEqual({ timestamp: T, signatures: [good] });
	});

	it('keeps every v1 entry, in order (several while a secret is rotated)', () => {
		expect(parseSignatureHeader(`t=${T},v1=${other},v1=${good}`).signatures).toEqual([other, good]);
	});

	it('ignores entries of unknown schemes', () => {
		expect(parseSignatureHeader(`t=${T},v0=abc,v2=xyz,v1=${good}`).signatures).toEqual([good]);
	});

	const malformedCases = malformedHeaders(good, T);
	for (const [name, header, code, text] of malformedCases) {
		it(`rejects ${name} with its own message`, () => {
			expectFormatError(() => parseSignatureHeader(header), code, text);
		});
	}
});
