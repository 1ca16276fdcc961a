import { describe, expect, test } from 'vitest';
import { wikipediaArticle, wikipediaArticleHtml } from './wikipedia-pages';

describe('wikipediaArticle', () => {
  test.each([
    ['https://en.wikipedia.org/wiki/Paris', 'en', 'Paris'],
    ['https://de.m.wikipedia.org/wiki/K%C3%B6ln', 'de', 'Köln'],
    ['https://en.wikipedia.org/wiki/AC/DC', 'en', 'AC/DC'],
  ])('%s → the parse API', (url, lang, title) => {
    const api = new URL(wikipediaArticle(url)!.apiUrl);
    expect(api.origin).toBe(`https://${lang}.wikipedia.org`);
    expect(api.searchParams.get('page')).toBe(title);
    expect(api.searchParams.get('origin')).toBe('*');
    expect(api.searchParams.get('action')).toBe('parse');
  });

  test.each(['https://en.wikipedia.org/w/index.php?title=Paris', 'http://en.wikipedia.org/wiki/Paris', 'https://wikipedia.org.evil.example/wiki/Paris', 'https://en.wikipedia.org/wiki/', 'nonsense'])(
    '%s is not an article',
    (url) => expect(wikipediaArticle(url)).toBeNull(),
  );
});

describe('wikipediaArticleHtml', () => {
  test('a document with the title (escaped) and the article', () => {
    expect(wikipediaArticleHtml({ parse: { title: 'A<b>', text: '<p>x</p>' } })).toBe(
      '<!doctype html><html><head><title>A&lt;b></title></head><body><article><h1>A&lt;b></h1><p>x</p></article></body></html>',
    );
  });

  test('errors', () => {
    expect(() => wikipediaArticleHtml({ error: { info: 'missing' } })).toThrow('Wikipedia answered with an error: missing');
    expect(() => wikipediaArticleHtml({})).toThrow(/not an article/);
  });
});
