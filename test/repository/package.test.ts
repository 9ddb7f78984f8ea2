/**
 * The published tarball holds what n8n loads and nothing else: the built nodes and credentials (with
 * their codex and icons), package.json, README and LICENSE. No build cache, no source maps pointing
 * at sources that are not shipped, no screenshots or docs images the build copied into dist/. The
 * Docs links n8n shows for the node and the credential open a page of their own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';

interface PackedFile {
	path: string;
}

const report = (
	JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
			cwd: PACKAGE_DIR,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}),
	) as Array<{ files: PackedFile[]; size: number; unpackedSize: number }>
)[0];
const packed = report.files.map((file) => file.path);

const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
	homepage: string;
	n8n: { nodes: string[]; credentials: string[] };
};

describe('the tarball is what n8n needs and nothing else', () => {
	it('every file n8n loads is in it: nodes, credentials, codex, light and dark icons', () => {
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			expect(packed).toContain(file);
		}
		expect(packed).toContain('dist/nodes/TriggerAutomation/TriggerAutomation.node.json');
		expect(packed).toContain('dist/nodes/TriggerAutomation/triggerAutomation.svg');
		expect(packed).toContain('dist/nodes/TriggerAutomation/triggerAutomation.dark.svg');
	});

	it('nothing else: no build cache, source maps, copied images or dist/package.json', () => {
		const unexpected = packed.filter(
			(file) =>
				!['package.json', 'README.md', 'LICENSE.md'].includes(file) &&
				!/^dist\/(nodes|credentials)\/.+\.(js|d\.ts|json|svg)$/.test(file),
		);
		expect(unexpected).toEqual([]);
		expect(packed.filter((file) => /\.(map|tsbuildinfo|png)$/.test(file))).toEqual([]);
	});

	it('ships no signature verification: the package signs, only the simulator verifies', () => {
		const code = packed.filter((file) => file.endsWith('.js'));
		expect(code.length).toBeGreaterThan(0);
		for (const file of code) {
			const text = readFileSync(join(PACKAGE_DIR, file), 'utf8');
			expect(text, file).not.toMatch(/timingSafeEqual|verifySignature|VerificationError/);
		}
	});
});

describe("the node's and the credential's Docs links open their own page", () => {
	const builtCodex = JSON.parse(
		readFileSync(
			join(PACKAGE_DIR, 'dist/nodes/TriggerAutomation/TriggerAutomation.node.json'),
			'utf8',
		),
	) as {
		resources: Record<'primaryDocumentation' | 'credentialDocumentation', Array<{ url: string }>>;
	};
	const { ServiceWebhookSecretApi } = createRequire(__filename)(
		join(PACKAGE_DIR, manifest.n8n.credentials[0]),
	) as { ServiceWebhookSecretApi: new () => { documentationUrl: string } };
	const links = {
		node: builtCodex.resources.primaryDocumentation[0].url,
		'credential (codex)': builtCodex.resources.credentialDocumentation[0].url,
		credential: new ServiceWebhookSecretApi().documentationUrl,
	};
	const pages = `${manifest.homepage.replace(/#.*$/, '')}/blob/main/`;

	// n8n appends its `?utm_source=…` query to the node's link; after a #fragment that query
	// becomes part of the fragment and the browser lands at the top of the page.
	it.each(Object.entries(links))(
		'%s: a page of docs/ in the repository, without a #fragment',
		(_, url) => {
			expect(url).not.toContain('#');
			expect(url.startsWith(pages)).toBe(true);
			const page = url.slice(pages.length);
			expect(page).toMatch(/^docs\/[a-z-]+\.md$/);
			expect(existsSync(join(PACKAGE_DIR, page))).toBe(true);
		},
	);

	it("the node and the credential link the user's page, docs/reference.md", () => {
		expect(links.node).toBe(`${pages}docs/reference.md`);
		expect(links.credential).toBe(`${pages}docs/reference.md`);
		expect(links['credential (codex)']).toBe(links.credential);
	});
});
