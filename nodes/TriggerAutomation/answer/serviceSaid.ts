/**
 * What the service's answer said, as a sentence an error's description ends with: its own message
 * when the body is JSON, else its text, or for an HTML error page (a proxy's) its title; made fit
 * for the editor (failure.ts, editorText) and kept short.
 */
import { isPlainObject } from '../../../credentials/common/plainObject';
import { editorText } from './failure';
import type { RawResponse } from './response';
import { headerValue } from './response';

/** Where a JSON answer carries the service's own message, most specific first. */
const MESSAGE_FIELDS = [
	['message'],
	['error', 'message'],
	['error_description'],
	['detail'],
	['error'],
	['title'],
];

const SAID_MAX_CHARACTERS = 500;

/** The service's words: its message when the body is JSON (whatever its type), else the text. */
function serviceMessage(response: RawResponse): string {
	const text = response.body.toString('utf8');
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return text;
	}
	if (typeof body === 'string') return body;
	for (const path of MESSAGE_FIELDS) {
		const value = path.reduce<unknown>(
			(parent, key) => (isPlainObject(parent) ? parent[key] : undefined),
			body,
		);
		if (typeof value === 'string' && value.trim() !== '') return value;
	}
	return text;
}

/** " The service said: …", as plain text the editor shows whole; empty when it said nothing. */
export function serviceSaid(response: RawResponse): string {
	const text = editorText(serviceMessage(response));
	if (text === '') return '';
	const characters = Array.from(text);
	const shown =
		characters.length > SAID_MAX_CHARACTERS
			? `${characters.slice(0, SAID_MAX_CHARACTERS).join('')}…`
			: text;
	return ` The service said: ${shown}`;
}

const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
const HTML_START = /^\s*(<!doctype html|<html)/i;
const HTML_TITLE = /<title[^>]*>([^<]*)<\/title>/i;

/** Whether the answer is an HTML page (by its type, or by how its body starts). */
export function isHtmlPage(response: RawResponse): boolean {
	const type = headerValue(response.headers, 'content-type') ?? '';
	const start = response.body.subarray(0, 512).toString('utf8');
	return HTML_TYPE.test(type) || HTML_START.test(start);
}

/**
 * What the answer said, whatever its status: a proxy's or gateway's error page (nginx's 429 or
 * 503, a firewall's 403) is an HTML page, whose text quoted on one line reads as markup; its
 * title says what it is.
 */
export function answerSaid(response: RawResponse): string {
	if (!isHtmlPage(response)) return serviceSaid(response);
	const title = editorText(HTML_TITLE.exec(response.body.toString('utf8'))?.[1] ?? '');
	const shown = Array.from(title).slice(0, SAID_MAX_CHARACTERS).join('');
	return shown === ''
		? ' The answer was an HTML page.'
		: ` The answer was an HTML page titled “${shown}”.`;
}
