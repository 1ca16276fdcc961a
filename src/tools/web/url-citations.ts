/**
 * `url_citation`s for an answer: every page the tools showed the model that the answer
 * names by URL is cited where it is named; a page the model opened and used without naming
 * it is cited over the whole answer.
 */
import type { UrlCitation } from '../../protocol/output-items';

/** A page the tools showed the model; `opened`: read whole, not just listed. */
export interface CitedPage {
  url: string;
  title: string;
  opened?: boolean;
}

export function citationsFor(text: string, pages: readonly CitedPage[]): UrlCitation[] {
  const citations: UrlCitation[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    if (!page.url || seen.has(page.url)) continue;
    seen.add(page.url);
    const at = text.indexOf(page.url);
    if (at !== -1) citations.push({ type: 'url_citation', url: page.url, title: page.title, start_index: at, end_index: at + page.url.length });
    else if (page.opened && text.trim()) citations.push({ type: 'url_citation', url: page.url, title: page.title, start_index: 0, end_index: text.length });
  }
  return citations.sort((a, b) => a.start_index - b.start_index);
}
