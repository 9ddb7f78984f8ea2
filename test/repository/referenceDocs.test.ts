/**
 * docs/reference.md is the one place that describes each field and option of the node and the
 * credential, and the page their Docs links open. It is checked against the built
 * node's and credential's descriptions as n8n loads them (package.json "n8n"), so a field or option
 * added to the code cannot go undocumented.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { ICredentialType, INodeProperties, INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';
import { section } from '../support/markdown';

const read = (file: string) => readFileSync(join(PACKAGE_DIR, file), 'utf8');

const manifest = JSON.parse(read('package.json')) as {
	n8n: { nodes: string[]; credentials: string[] };
};

/** The one class a built file exports, made as n8n makes it. */
function built<T>(file: string): T {
	const exports = createRequire(__filename)(join(PACKAGE_DIR, file)) as Record<string, new () => T>;
	const [only] = Object.values(exports);
	return new only();
}

const node = built<INodeType>(manifest.n8n.nodes[0]).description;
const credential = built<ICredentialType>(manifest.n8n.credentials[0]);

/**
 * What the editor shows of a list of fields: each field's name and the names of its options,
 * choices and values, all the way down. A notice is text, not a field; a hidden field is not shown.
 */
function labels(fields: readonly unknown[]): string[] {
	return fields.flatMap((entry) => {
		const field = entry as Partial<INodeProperties> & { name: string; values?: unknown[] };
		if (field.type === 'notice' || field.type === 'hidden') return [];
		const own = field.displayName ?? field.name;
		const nested = [...(field.options ?? []), ...(field.values ?? [])];
		return [own, ...labels(nested)];
	});
}

/** The entries of the node's Options collection, by name. */
const options = node.properties
	.filter((field) => field.type === 'collection')
	.flatMap((field) =>
		(field.options ?? []).map((option) =>
			'displayName' in option ? option.displayName : option.name,
		),
	);

/** The labels `text` does not name as the editor shows them (line breaks aside, as prose wraps). */
function unnamed(text: string | undefined, wanted: string[]): string[] {
	const prose = (text ?? '').replace(/\s+/g, ' ');
	return [...new Set(wanted)].filter((label) => !prose.includes(label));
}

describe('the docs name every field and option the node and the credential show', () => {
	it('the descriptions are read from the build: the node has Options, the credential fields', () => {
		expect(options).toEqual(expect.arrayContaining(['Timeout', "Preview Only (Don't Send)"]));
		expect(labels(credential.properties)).toEqual(['Webhook URL', 'Signing Secret']);
	});

	it("docs/reference.md's Node section names every field, option, choice and value", () => {
		const text = section(read('docs/reference.md'), 'Node: Trigger Automation');
		expect(text).toBeDefined();
		expect(unnamed(text, labels(node.properties))).toEqual([]);
	});

	it("docs/reference.md's Credential section names every field", () => {
		const text = section(read('docs/reference.md'), 'Credential: Service Webhook Secret');
		expect(text).toBeDefined();
		expect(unnamed(text, labels(credential.properties))).toEqual([]);
	});
});
