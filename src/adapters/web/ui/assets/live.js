// Live totals (docs/design/statistics.md): every [data-metric="clicks"] counts on from its data-value as the
// account's clicks happen; one with data-link-id counts that link's only. A [data-live-refresh] region
// (a chart, a ranked list) is read again from the server once its clicks are written: its
// data-live-total says how many it counted, and it is swapped when the page's new copy has them all.
// Without this script, or without EventSource, the numbers are those of the page's load.
{
  const metrics = () => [...document.querySelectorAll('[data-metric="clicks"][data-value]')];
  const regions = () => [...document.querySelectorAll('[data-live-refresh][data-live-total][id]')];
  if ((metrics().length > 0 || regions().length > 0) && 'EventSource' in window) {
    const format = new Intl.NumberFormat(document.documentElement.lang || undefined);
    const source = new EventSource('/account/live');
    // data-live: the numbers are counting now (a style may show it); gone while the stream is down.
    const mark = (live) => {
      for (const element of metrics()) element.toggleAttribute('data-live', live);
    };
    // data-live-want: the clicks a region should count, told by the stream; the rollups it is read
    // from are written a little later, so it is read again until its copy has them all.
    let timer = 0;
    let tries = 0;
    const refresh = async () => {
      timer = 0;
      let page;
      try {
        const res = await fetch(location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
        if (!res.ok) return;
        page = new DOMParser().parseFromString(await res.text(), 'text/html');
      } catch {
        return;
      }
      let behind = false;
      for (const region of regions()) {
        const fresh = page.getElementById(region.id);
        if (!fresh || !fresh.hasAttribute('data-live-total')) continue;
        const has = Number(fresh.getAttribute('data-live-total'));
        const want = Number(region.getAttribute('data-live-want') ?? region.getAttribute('data-live-total'));
        if (has < want) {
          behind = true;
          fresh.setAttribute('data-live-want', String(want));
        }
        // A newer copy is shown even when behind: it never counts less than the one on the page.
        if (has > Number(region.getAttribute('data-live-total'))) region.replaceWith(document.adoptNode(fresh));
      }
      if (behind && ++tries < 10) schedule(1500);
    };
    const schedule = (ms) => {
      if (timer === 0) timer = window.setTimeout(refresh, ms);
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
      for (const element of metrics()) {
        const id = element.getAttribute('data-link-id');
        const added = id === null ? tally.clicks : tally.links[id];
        if (typeof added !== 'number' || added <= 0) continue;
        const value = Number(element.getAttribute('data-value')) + added;
        element.setAttribute('data-value', String(value));
        element.textContent = format.format(value);
      }
      if (typeof tally.clicks === 'number' && tally.clicks > 0 && regions().length > 0) {
        for (const region of regions()) {
          const want = Number(region.getAttribute('data-live-want') ?? region.getAttribute('data-live-total'));
          region.setAttribute('data-live-want', String(want + tally.clicks));
        }
        tries = 0;
        schedule(1000);
      }
    });
    // A page left for another (or kept in the back-forward cache) lets go of its stream.
    window.addEventListener('pagehide', () => source.close());
  }
}
