// Live totals (docs/design/statistics.md): every [data-metric="clicks"] counts on from its data-value as the
// account's clicks happen; one with data-link-id counts that link's only. Without this script,
// or without EventSource, the numbers are those of the page's load.
{
  const totals = [...document.querySelectorAll('[data-metric="clicks"][data-value]')];
  if (totals.length > 0 && 'EventSource' in window) {
    const format = new Intl.NumberFormat(document.documentElement.lang || undefined);
    const source = new EventSource('/account/live');
    // data-live: the numbers are counting now (a style may show it); gone while the stream is down.
    const mark = (live) => {
      for (const element of totals) element.toggleAttribute('data-live', live);
    };
    source.addEventListener('open', () => mark(true));
    source.addEventListener('error', () => mark(false));
    source.addEventListener('clicks', (event) => {
      let tally;
      try {
        tally = JSON.parse(event.data);
      } catch {
        return;
      }
      for (const element of totals) {
        const id = element.getAttribute('data-link-id');
        const added = id === null ? tally.clicks : tally.links[id];
        if (typeof added !== 'number' || added <= 0) continue;
        const value = Number(element.getAttribute('data-value')) + added;
        element.setAttribute('data-value', String(value));
        element.textContent = format.format(value);
      }
    });
    // A page left for another (or kept in the back-forward cache) lets go of its stream.
    window.addEventListener('pagehide', () => source.close());
  }
}
