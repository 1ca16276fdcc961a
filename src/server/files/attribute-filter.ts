/**
 * OpenAI's attribute filters over a file's `attributes`: comparisons `eq ne gt gte lt lte in
 * nin` and nested `and`/`or`. A comparison with a key the file lacks is false (`ne` and `nin`
 * too: there is no value to differ); `gt`… compare numbers with numbers and strings with
 * strings, anything else is false.
 */
import type { AttributeFilter, ComparisonFilter } from '../../protocol/vector-stores';
import type { FileAttributes } from '../../protocol/vector-stores';

export function matchesFilter(filter: AttributeFilter, attributes: FileAttributes | null): boolean {
  if ('filters' in filter)
    return filter.type === 'and' ? filter.filters.every((f) => matchesFilter(f, attributes)) : filter.filters.some((f) => matchesFilter(f, attributes));
  return compare(filter, attributes);
}

function compare(filter: ComparisonFilter, attributes: FileAttributes | null): boolean {
  if (!attributes || !Object.hasOwn(attributes, filter.key)) return false;
  const value = attributes[filter.key]!;
  const wanted = filter.value;
  switch (filter.type) {
    case 'eq':
      return value === wanted;
    case 'ne':
      return value !== wanted;
    case 'in':
      return Array.isArray(wanted) && (wanted as unknown[]).includes(value);
    case 'nin':
      return Array.isArray(wanted) && !(wanted as unknown[]).includes(value);
    default: {
      if (Array.isArray(wanted) || typeof value !== typeof wanted || typeof value === 'boolean') return false;
      const a = value as number | string;
      const b = wanted as number | string;
      return filter.type === 'gt' ? a > b : filter.type === 'gte' ? a >= b : filter.type === 'lt' ? a < b : a <= b;
    }
  }
}
