/**
 * An error's description as n8n's editor shows it: the same steps, with the same packages and
 * options, so a test can see what text the user is left with. The same in n8n 2.41.1 (its editor,
 * n8n-editor-ui 2.41.0) and 1.123:
 *
 * 1. NodeErrorView.vue (2.x: packages/frontend/editor-ui/src/features/ndv/runData/components/error/,
 *    1.x: packages/frontend/editor-ui/src/components/Error/), `prepareDescription`: text between
 *    backticks becomes <code>…</code>, then `sanitizeHtml`; the description's div is bound with
 *    `v-n8n-html`.
 * 2. `sanitizeHtml` (editor-ui src/app/utils/htmlUtils.ts): the xss package; `onTag` drops every tag
 *    outside ALLOWED_HTML_TAGS, `onTagAttr` keeps ALLOWED_HTML_ATTRIBUTES (src/app/constants).
 * 3. `v-n8n-html` (@n8n/design-system src/directives/n8n-html.ts): sanitize-html with its defaults
 *    plus img and input, set as the element's innerHTML.
 *
 * Read in the shipped bundles too (2.41.1: assets/RunData-*.js, htmlUtils-*.js, Tooltip-*.js).
 * The packages come with the n8n packages this repository depends on, and are found through them
 * rather than named as dependencies: xss as n8n-core's @n8n/api-types pins it (1.0.15, as for n8n's
 * editor), sanitize-html and jsdom (the DOM that innerHTML needs) from n8n-nodes-base.
 */
import { createRequire } from 'node:module';
import { sep } from 'node:path';

import type { IFilterXSSOptions } from 'xss';

type Xss = ((html: string, options: IFilterXSSOptions) => string) & {
	escapeAttrValue(value: string): string;
};
interface SanitizeDefaults {
	allowedTags: string[];
	allowedAttributes: Record<string, string[]>;
}
type SanitizeHtml = ((html: string, options: SanitizeDefaults) => string) & {
	defaults: SanitizeDefaults;
};
/** What is used of jsdom's DOM (this repository's TypeScript has no DOM types). */
interface Jsdom {
	JSDOM: new (html: string) => {
		window: { document: { createElement(tag: 'div'): { innerHTML: string; textContent: string } } };
	};
}

const require = createRequire(import.meta.url);
/** The last package of a chain in which each depends on the next, found as each finds the next. */
function packageVia<T>(...chain: string[]): T {
	let from: string[] | undefined;
	for (const name of chain.slice(0, -1)) {
		// The package's folder, from its entry point (not every package exports its package.json).
		const entry = require.resolve(name, from && { paths: from });
		const folder = `${sep}node_modules${sep}${name.split('/').join(sep)}`;
		from = [entry.slice(0, entry.lastIndexOf(folder) + folder.length)];
	}
	return require(require.resolve(chain[chain.length - 1], from && { paths: from })) as T;
}

const xss = packageVia<Xss>('n8n-core', '@n8n/decorators', '@n8n/api-types', 'xss');
const sanitize = packageVia<SanitizeHtml>('n8n-nodes-base', 'sanitize-html');
const { JSDOM } = packageVia<Jsdom>('n8n-nodes-base', 'jsdom');

const ALLOWED_HTML_TAGS = [
	'p',
	'strong',
	'b',
	'code',
	'a',
	'br',
	'i',
	'ul',
	'li',
	'em',
	'small',
	'details',
	'summary',
	'mark',
];
const ALLOWED_HTML_ATTRIBUTES = ['href', 'name', 'target', 'title', 'class', 'id', 'style'];

function sanitizeHtml(dirtyHtml: string): string {
	return xss(dirtyHtml, {
		onTagAttr: (tag, name, value) => {
			if (tag === 'img' && name === 'src') {
				const isStaticImageFile =
					value.split('#')[0].match(/\.(jpeg|jpg|gif|png|webp)$/) !== null &&
					value.startsWith('/static/');
				if (!value.startsWith('https://') && !isStaticImageFile) return '';
			}
			if (ALLOWED_HTML_ATTRIBUTES.includes(name) || name.startsWith('data-')) {
				if (name === 'href' && !value.match(/^https?:\/\//) && !value.startsWith('/')) return '';
				return `${name}="${xss.escapeAttrValue(value)}"`;
			}
			return undefined;
		},
		onTag: (tag) => (ALLOWED_HTML_TAGS.includes(tag) ? undefined : ''),
	});
}

function n8nHtml(html: string): string {
	return sanitize(html, {
		allowedTags: sanitize.defaults.allowedTags.concat(['img', 'input']),
		allowedAttributes: {
			...sanitize.defaults.allowedAttributes,
			input: ['type', 'id', 'checked'],
			code: ['class'],
			a: sanitize.defaults.allowedAttributes.a.concat(['data-*']),
			div: ['class'],
		},
	});
}

const document = new JSDOM('').window.document;

/** The HTML the editor puts into the description's element. */
export function editorHtml(description: string): string {
	return n8nHtml(sanitizeHtml(description.replace(/`(.*?)`/g, '<code>$1</code>')));
}

/** The text a user reads in the editor for this description. */
export function editorShows(description: string): string {
	const element = document.createElement('div');
	element.innerHTML = editorHtml(description);
	return element.textContent;
}

/** A description as the editor's text shows it when all goes well: the node's own links by their text. */
export function withLinksAsText(description: string): string {
	return description.replace(/<a href="[^"]*" target="_blank">([^<]*)<\/a>/g, '$1');
}

/** Text a service or n8n might send: tags the editor drops, entities it reads, a code span. */
export const MARKUP =
	'signs "<t>.<body>" with the same t; &lt;b&gt; & `t` <!-- x --> a < b > c <p>end';
