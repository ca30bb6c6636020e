// The link form's UTM builder (features/utm/utm-builder-view.ts): the destination follows the
// five fields as they are typed, and the fields follow the destination. The same reading and
// writing as core/utm/utm-url.ts, which the server applies when this script does not run.
{
  const PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

  const decode = (text) => {
    const spaced = text.replace(/\+/g, ' ');
    try {
      return decodeURIComponent(spaced);
    } catch {
      return spaced;
    }
  };
  const nameOf = (pair) => decode(pair.includes('=') ? pair.slice(0, pair.indexOf('=')) : pair);
  const valueOf = (pair) => (pair.includes('=') ? decode(pair.slice(pair.indexOf('=') + 1)) : '');

  const partsOf = (url) => {
    const hash = url.indexOf('#');
    const before = hash === -1 ? url : url.slice(0, hash);
    const fragment = hash === -1 ? '' : url.slice(hash);
    const question = before.indexOf('?');
    if (question === -1) return { head: before, pairs: [], fragment };
    const query = before.slice(question + 1);
    return { head: before.slice(0, question), pairs: query === '' ? [] : query.split('&'), fragment };
  };

  const readUtm = (url) => {
    const found = Object.fromEntries(PARAMS.map((name) => [name, '']));
    const seen = new Set();
    for (const pair of partsOf(url).pairs) {
      const name = nameOf(pair);
      if (PARAMS.includes(name) && !seen.has(name)) {
        seen.add(name);
        found[name] = valueOf(pair);
      }
    }
    return found;
  };

  const composeUtm = (url, params) => {
    if (url.trim() === '') return url;
    const { head, pairs, fragment } = partsOf(url);
    const placed = new Set();
    const kept = [];
    for (const pair of pairs) {
      const name = nameOf(pair);
      if (!PARAMS.includes(name)) {
        kept.push(pair);
        continue;
      }
      if (placed.has(name) || params[name] === '') continue;
      placed.add(name);
      kept.push(valueOf(pair) === params[name] ? pair : `${name}=${encodeURIComponent(params[name])}`);
    }
    for (const name of PARAMS) {
      if (!placed.has(name) && params[name] !== '') kept.push(`${name}=${encodeURIComponent(params[name])}`);
    }
    if (kept.length === pairs.length && kept.every((pair, i) => pair === pairs[i])) return url;
    return `${head}${kept.length > 0 ? `?${kept.join('&')}` : ''}${fragment}`;
  };

  for (const builder of document.querySelectorAll('[data-utm-builder]')) {
    const form = builder.closest('form');
    const url = form?.elements.namedItem('url');
    const base = builder.querySelector('input[name="utm_base"]');
    if (!(url instanceof HTMLInputElement) || !(base instanceof HTMLInputElement)) continue;
    const fields = PARAMS.map((name) => builder.querySelector(`input[name="${name}"]`));
    if (!fields.every((field) => field instanceof HTMLInputElement)) continue;
    // Kept equal to the destination, so the server sees no field changed behind its back.
    const settle = () => {
      base.value = url.value;
    };
    builder.addEventListener('input', (event) => {
      if (!fields.includes(event.target)) return;
      const params = Object.fromEntries(fields.map((field) => [field.name, field.value.trim()]));
      url.value = composeUtm(url.value, params);
      settle();
    });
    // "Apply template" in the page: the chosen template's five parameters (a blank one takes its
    // parameter out, as the server applies it) into the fields and the destination, no request.
    // No template chosen, or one the page does not know: the button posts, and the server says why.
    const picker = builder.querySelector('[data-utm-templates]');
    const apply = builder.querySelector('button[name="utm_apply"]');
    const choice = builder.querySelector('select[name="utm_template"]');
    const said = builder.querySelector('[data-utm-applied]');
    apply?.addEventListener('click', (event) => {
      let templates;
      try {
        templates = JSON.parse(picker?.dataset.utmTemplates ?? '{}');
      } catch {
        return;
      }
      const template = choice instanceof HTMLSelectElement ? templates[choice.value] : undefined;
      if (!template) return;
      event.preventDefault();
      for (const field of fields) field.value = template[field.name] ?? '';
      const params = Object.fromEntries(fields.map((field) => [field.name, field.value.trim()]));
      url.value = composeUtm(url.value, params);
      settle();
      // The preview card follows, as after typing.
      url.dispatchEvent(new Event('change', { bubbles: true }));
      if (said) {
        said.hidden = false;
        said.textContent = (picker?.dataset.applied ?? '').replace('{name}', choice.selectedOptions[0]?.text ?? '');
      }
    });
    url.addEventListener('input', () => {
      const params = readUtm(url.value);
      for (const field of fields) {
        if (field.value.trim() !== params[field.name]) field.value = params[field.name];
      }
      settle();
    });
  }
}
