// A very small markdown renderer for the Text components: headings (`#` to `#####`), paragraphs,
// `**bold**`, `*emphasis*` and `[links](https://…)`. Everything else is shown as plain text. All
// text is HTML-escaped first, so the agent cannot inject markup.
//
// Both renderer versions accept `(text, options) => Promise<string>`; `options.tagClassMap` maps
// a tag name to the classes to put on it.

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function classes(options, tag) {
  const list = options?.tagClassMap?.[tag];
  const names = Array.isArray(list) ? list : list && typeof list === 'object' ? Object.keys(list).filter((k) => list[k]) : [];
  return names.length ? ` class="${escapeHtml(names.join(' '))}"` : '';
}

function inline(text, options) {
  return escapeHtml(text)
    .replace(/\*\*([^*]+)\*\*/g, (_, t) => `<strong${classes(options, 'strong')}>${t}</strong>`)
    .replace(/\*([^*]+)\*/g, (_, t) => `<em${classes(options, 'em')}>${t}</em>`)
    .replace(
      /\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g,
      (_, t, href) => `<a${classes(options, 'a')} href="${href}" target="_blank" rel="noopener">${t}</a>`,
    );
}

/** Renders `text` to HTML. */
export function renderMarkdown(text, options) {
  const blocks = String(text ?? '')
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  const html = blocks.map((block) => {
    const heading = /^(#{1,5})\s+(.*)$/s.exec(block);
    if (heading) {
      const tag = `h${heading[1].length}`;
      return `<${tag}${classes(options, tag)}>${inline(heading[2], options)}</${tag}>`;
    }
    return `<p${classes(options, 'p')}>${inline(block, options).replace(/\n/g, '<br>')}</p>`;
  });
  return Promise.resolve(html.join(''));
}
