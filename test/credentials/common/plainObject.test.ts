import { describe, expect, it } from 'vitest';

import { isPlainObject } from '../../../credentials/common/plainObject';

class Order {
	id = 7;
}

describe('a plain object: what JSON.stringify writes as {…} without surprises', () => {
	it.each([
		['an object literal', { a: 1 }],
		["JSON.parse's object", JSON.parse('{"a":{"b":[1]}}')],
		['an object without a prototype', Object.create(null)],
	])('%s is one', (_, value) => {
		expect(isPlainObject(value)).toBe(true);
	});

	it.each([
		['an array', [1]],
		['null', null],
		['a string', '{}'],
		['a Date', new Date(0)],
		['a Buffer', Buffer.from('{}')],
		['a class instance', new Order()],
		['a Map', new Map([['a', 1]])],
	])('%s is not', (_, value) => {
		expect(isPlainObject(value)).toBe(false);
	});
});
