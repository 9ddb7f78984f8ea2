/**
 * Text from elsewhere (what the service said, n8n's own description) made fit for an error's
 * description. n8n's editor shows a description as HTML (NodeErrorView.vue): text between two
 * backticks becomes <code>, then two sanitizers (xss, then sanitize-html) keep a few tags, and the
 * result is set as innerHTML. A tag they do not keep is dropped without a trace (the service's
 * "signs <t>.<body>" reads "signs ."), and an entity such as &lt; shows as the character it names.
 * HTML entities would show as written where the same description is read as text (the item's JSON,
 * `n8n execute`, logs), so those characters are written as look-alikes that read the same in both.
 */

/** `<`, `>`, `&` and the backtick, as characters that neither HTML nor the backticks read. */
const LOOK_ALIKES: Record<string, string> = {
	'<': '\u2039', // ‹ single left-pointing angle quotation mark
	'>': '\u203a', // ›
	'&': '\uff06', // ＆ fullwidth ampersand
	'`': '\u02cb', // ˋ modifier letter grave accent
};

/**
 * The text on one line (the editor runs line breaks and spaces together anyway; control characters
 * become spaces too), with nothing the editor reads as markup.
 */
export function editorText(text: string): string {
	return text
		.replace(/[\s\p{Cc}]+/gu, ' ')
		.trim()
		.replace(/[<>&`]/g, (character) => LOOK_ALIKES[character]);
}
