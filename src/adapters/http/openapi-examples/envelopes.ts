/** The envelopes of docs/api.md §2 around example records, so that the area files show only records. */

const APP = 'https://lpx.example';

/** A list's first page of one, its links keeping the path. */
export function page(path: string, data: unknown[]) {
  const first = `${APP}${path}?page=1`;
  return {
    data,
    links: { first, last: first, prev: null, next: null },
    meta: {
      current_page: 1,
      from: 1,
      last_page: 1,
      path: `${APP}${path}`,
      per_page: 10,
      to: data.length,
      total: data.length,
    },
    status: 200,
  };
}

export function deleted(object: string) {
  return { id: 7, object, deleted: true, status: 200 };
}
