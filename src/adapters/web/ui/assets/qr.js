// QR page: the preview, the downloads and the logo forms follow the settings as they change.
// Without this file the "Update preview" button does the same in a round trip.
// WCAG relative luminance and contrast, as qr-contrast.ts computes them for the page's first answer.
const luminance = (hex) => {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
};

// The contrast box says what the colours picked now give, in the page's own words (its data-*).
const redrawWarnings = (form) => {
  const box = document.querySelector('[data-qr-warnings]');
  const fg = form.elements.namedItem('foreground');
  const bg = form.elements.namedItem('background');
  if (!(box instanceof HTMLElement && fg instanceof HTMLInputElement && bg instanceof HTMLInputElement)) return;
  const hex = /^#[0-9a-fA-F]{6}$/;
  if (!hex.test(fg.value) || !hex.test(bg.value)) return;
  const [a, b] = [luminance(fg.value), luminance(bg.value)];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const line = (className, text) => {
    const p = document.createElement('p');
    p.className = className;
    p.textContent = text;
    return p;
  };
  const shown = ratio.toFixed(2);
  const lines = [
    ratio < 4.5
      ? line('qr-warning', (box.dataset.low ?? '').replace('{ratio}', shown))
      : line('hint', (box.dataset.ok ?? '').replace('{ratio}', shown)),
  ];
  if (a > b) lines.push(line('qr-warning', box.dataset.inverted ?? ''));
  box.replaceChildren(...lines);
};

{
  const form = document.querySelector('form[data-qr-settings]');
  const preview = document.querySelector('img[data-qr-preview]');
  if (form instanceof HTMLFormElement && preview instanceof HTMLImageElement) {
    let timer = 0;
    const update = () => {
      redrawWarnings(form);
      const fields = [...form.elements].filter(
        (el) => el instanceof HTMLInputElement || el instanceof HTMLSelectElement,
      );
      // A value the server would refuse keeps the last good preview; the button names the fault.
      if (!fields.every((field) => field.checkValidity())) return;
      const params = new URLSearchParams();
      for (const field of fields) params.set(field.name, field.value);
      const query = params.toString();
      preview.src = `${preview.dataset.qrPreview}?${query}`;
      const size = Number(params.get('size'));
      if (size >= 64) {
        preview.width = size;
        preview.height = size;
      }
      for (const link of document.querySelectorAll('a[data-qr-download]')) {
        if (link instanceof HTMLAnchorElement) link.href = `${link.pathname}?${query}`;
      }
      for (const kept of document.querySelectorAll('.qr-logo input[type="hidden"]')) {
        if (kept instanceof HTMLInputElement && params.has(kept.name)) kept.value = params.get(kept.name) ?? '';
      }
      history.replaceState(null, '', `${new URL(form.action).pathname}?${query}`);
    };
    form.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(update, 250);
    });
    form.addEventListener('change', () => {
      clearTimeout(timer);
      update();
    });
  }
}
