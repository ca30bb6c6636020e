// QR page: the preview, the downloads and the logo forms follow the settings as they change.
// Without this file the "Update preview" button does the same in a round trip.
{
  const form = document.querySelector('form[data-qr-settings]');
  const preview = document.querySelector('img[data-qr-preview]');
  if (form instanceof HTMLFormElement && preview instanceof HTMLImageElement) {
    let timer = 0;
    const update = () => {
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
