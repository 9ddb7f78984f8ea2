import { describe, expect, it } from 'vitest';

import { editorText } from '../../../../nodes/TriggerAutomation/answer/failure';
import { MARKUP, editorHtml, editorShows } from '../../../support/editorRendering';

describe('editorText: foreign text as the editor shows it', () => {
	it("the editor's rendering loses such text: a tag is dropped, an entity read, backticks become code", () => {
		expect(editorShows(MARKUP)).toBe('signs "." with the same t; <b> & t  a  c end');
		expect(editorHtml('a `t` b')).toBe('a <code>t</code> b');
	});

	it('writes <, >, & and the backtick as look-alikes, on one line', () => {
		expect(editorText(' signs "<t>.<body>"\n\t& `t`\u0000! ')).toBe(
			'signs "\u2039t\u203a.\u2039body\u203a" \uff06 \u02cbt\u02cb !',
		);
	});

	it.each([
		MARKUP,
		'<script>alert(1)</script><img src=x onerror=alert(1)>',
		'&amp;lt;p&amp;gt; &#60;t&#62; &copy &nbsp;',
		'<![CDATA[ x ]]> <?xml?> </p> <',
		'```json\n{"a": 1}\n```',
	])('text through editorText is shown whole: %j', (text) => {
		expect(editorShows(editorText(text))).toBe(editorText(text));
	});
});
