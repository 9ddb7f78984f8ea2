/**
 * No reference to a page or section that does not exist. Relative links in the repository's
 * Markdown resolve to a file that exists and is not git-ignored, and a #fragment into a Markdown
 * page to one of its headings, by GitHub's anchors. Code and configuration point at a section in
 * words, on one line: "<page>, <Heading>" (for example in .ci/run); that heading must exist, word
 * for word.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';
import { headings, links, slug } from '../support/markdown';

const read = (file: string) => readFileSync(join(PACKAGE_DIR, file), 'utf8');

/** The repository's files: committed, and new ones git does not ignore. */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
	cwd: PACKAGE_DIR,
	encoding: 'utf8',
})
	.split('\n')
	.filter((file) => file !== '' && existsSync(join(PACKAGE_DIR, file)));

const pages = files.filter((file) => file.endsWith('.md'));

/** The paths among `paths` that git ignores. */
function ignored(paths: string[]): Set<string> {
	const result = spawnSync('git', ['check-ignore', '--stdin'], {
		cwd: PACKAGE_DIR,
		input: paths.join('\n'),
		encoding: 'utf8',
	});
	return new Set(result.stdout.split('\n').filter(Boolean));
}

/** What is wrong with each relative link of the pages, as "page: target (why)". */
function brokenLinks(): { checked: number; broken: string[] } {
	const resolved: Array<{ page: string; target: string; file: string; fragment?: string }> = [];
	for (const page of pages) {
		for (const target of links(read(page))) {
			if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue;
			const [path, fragment] = target.split('#');
			const file = path === '' ? page : posix.normalize(posix.join(posix.dirname(page), path));
			resolved.push({ page, target, file: decodeURI(file).replace(/\/$/, ''), fragment });
		}
	}
	const outside = ignored(resolved.map(({ file }) => file));
	const broken: string[] = [];
	for (const { page, target, file, fragment } of resolved) {
		if (file.startsWith('..') || !existsSync(join(PACKAGE_DIR, file)) || outside.has(file)) {
			broken.push(`${page}: ${target} (no such file in the repository)`);
		} else if (fragment !== undefined && file.endsWith('.md')) {
			if (!headings(read(file)).some(({ anchor }) => anchor === fragment)) {
				broken.push(`${page}: ${target} (${file} has no heading #${fragment})`);
			}
		}
	}
	return { checked: resolved.length, broken };
}

const PAGE = String.raw`\b(README(?:\.md)?|CONTRIBUTING(?:\.md)?|CHANGELOG(?:\.md)?|docs/[\w-]+\.md)`;
const POINTER = new RegExp(`${PAGE}, (?=[A-Z§])(.*)$`, 'gm');
/** A pointer broken after its page's comma: its heading cannot be read, so it cannot be checked. */
const SPLIT = new RegExp(`${PAGE},[ \t]*$`, 'gm');

/** A pointer names a heading when its words start with the heading and end there. */
function names(words: string, heading: string): boolean {
	return words.startsWith(heading) && /^($|[.,;:)'"])/.test(words.slice(heading.length));
}

/** Every "<page>, <Heading>" in code and configuration, and those naming no heading. */
function danglingPointers(): { checked: string[]; dangling: string[] } {
	const checked: string[] = [];
	const dangling: string[] = [];
	for (const file of files.filter((name) => !/\.(md|json|png|svg)$/.test(name))) {
		for (const [, page, words] of read(file).matchAll(POINTER)) {
			const target = page.includes('.') ? page : `${page}.md`;
			checked.push(`${file}: ${page}, ${words}`);
			const known = existsSync(join(PACKAGE_DIR, target))
				? headings(read(target)).map(({ text }) => text)
				: [];
			if (!known.some((heading) => names(words, heading))) {
				dangling.push(`${file}: "${page}, ${words}" (no such heading in ${target})`);
			}
		}
		for (const [pointer] of read(file).matchAll(SPLIT)) {
			checked.push(`${file}: ${pointer}`);
			dangling.push(`${file}: "${pointer}" (write the heading on the same line as its page)`);
		}
	}
	return { checked, dangling };
}

describe('links and section pointers resolve', () => {
	it('headings get the anchors GitHub gives them', () => {
		const page = [
			'# Credential: Service Webhook Secret',
			'## §5.1 Header name',
			'## The n8n editor with the package (npm run dev)',
			'## `npm start`, offline',
			'```sh',
			'# not a heading',
			'```',
			'## Options → Timeout',
			'## Output',
			'## Output',
		].join('\n');
		expect(headings(page).map(({ anchor }) => anchor)).toEqual([
			'credential-service-webhook-secret',
			'51-header-name',
			'the-n8n-editor-with-the-package-npm-run-dev',
			'npm-start-offline',
			'options--timeout',
			'output',
			'output-1',
		]);
		expect(slug("Preview Only (Don't Send)")).toBe('preview-only-dont-send');
	});

	it('every relative link in the Markdown pages reaches a file, and its #fragment a heading', () => {
		const { checked, broken } = brokenLinks();
		// The pages link to each other and to the code dozens of times.
		expect(pages).toEqual(
			expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/reference.md']),
		);
		expect(checked).toBeGreaterThan(50);
		expect(broken).toEqual([]);
	});

	it('every "<page>, <Heading>" pointer in code and configuration names a heading that exists', () => {
		const { checked, dangling } = danglingPointers();
		// .ci/run, the publish workflow and eslint.dev.config.mjs point at sections this way.
		expect(checked.length).toBeGreaterThanOrEqual(3);
		expect(dangling).toEqual([]);
	});
});
