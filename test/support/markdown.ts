/**
 * The parts of a Markdown page the docs tests read: its headings with the anchors GitHub gives them,
 * one section's text, and its links. Fenced code blocks are not Markdown and are left out.
 */

export interface Heading {
	level: number;
	/** As GitHub shows it: inline code, emphasis and link targets taken out. */
	text: string;
	/** The #fragment GitHub links it by. */
	anchor: string;
}

/** The page without its fenced code blocks. */
function prose(markdown: string): string[] {
	let fenced = false;
	return markdown.split('\n').filter((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return false;
		}
		return !fenced;
	});
}

function plain(text: string): string {
	return text
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[`*]/g, '')
		.trim();
}

/**
 * GitHub's anchor for a heading: lower case, every character but letters, digits, spaces, `-` and
 * `_` dropped, each space a `-`.
 */
export function slug(text: string): string {
	return text
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The headings in order; a repeated anchor gets `-1`, `-2` … as on GitHub. */
export function headings(markdown: string): Heading[] {
	const seen = new Map<string, number>();
	const found: Heading[] = [];
	for (const line of prose(markdown)) {
		const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
		if (!match) continue;
		const text = plain(match[2]);
		const base = slug(text);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		found.push({ level: match[1].length, text, anchor: count === 0 ? base : `${base}-${count}` });
	}
	return found;
}

/** The text under a heading, up to the next heading of its level or higher; undefined if none. */
export function section(markdown: string, heading: string): string | undefined {
	const lines = prose(markdown);
	const start = lines.findIndex((line) => {
		const match = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
		return match !== null && plain(match[2]) === heading;
	});
	if (start === -1) return undefined;
	const level = /^#+/.exec(lines[start])![0].length;
	const end = lines.findIndex(
		(line, index) => index > start && new RegExp(`^#{1,${level}}\\s`).test(line),
	);
	return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The targets of the page's links and images, as written. */
export function links(markdown: string): string[] {
	const text = prose(markdown)
		.join('\n')
		.replace(/`[^`\n]*`/g, '');
	return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}
