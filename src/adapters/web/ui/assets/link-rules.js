// The rules builder (link-rules-builder-view.ts): rules, conditions and variants added, moved
// and taken out in the page, no request; a condition's fields follow its kind; the weights'
// sum follows the typing. Without this file the same buttons post the form and the page comes
// back with the change made and every field kept.
{
  const builder = () => document.querySelector('[data-rules-builder]');
  const cloneOf = (form, selector) => form.querySelector(selector).content.firstElementChild.cloneNode(true);

  /** `rule[i][c][j]…` and `f-rule-i-c-j-…`: names, ids and labels follow the rows' order, as the server numbers them. */
  const renumber = (form) => {
    const rules = form.querySelectorAll('.rule-rows > [data-rb-rule]');
    rules.forEach((rule, i) => {
      const fix = (el, j, part) => {
        for (const attr of ['name', 'id', 'for', 'aria-describedby', 'formaction']) {
          let v = el.getAttribute(attr);
          if (!v) continue;
          v = v.replace(/^rule\[\d+\]/, `rule[${i}]`).replace(/f-rule-\d+/g, `f-rule-${i}`);
          if (j !== null)
            v = v
              .replace(new RegExp(`\\[${part}\\]\\[\\d+\\]`), `[${part}][${j}]`)
              .replace(new RegExp(`-${part}-\\d+`, 'g'), `-${part}-${j}`);
          el.setAttribute(attr, v);
        }
        if (el.matches('button[name="intent"]')) {
          const action = el.value.split(':')[0];
          if (/:\d+:\d+$/.test(el.value)) el.value = `${action}:${i}:${j}`;
          else if (/:\d+$/.test(el.value)) el.value = `${action}:${i}`;
        }
      };
      for (const el of rule.querySelectorAll('[name], [id], [for], [aria-describedby], button')) fix(el, null, '');
      rule.querySelectorAll('[data-rb-condition]').forEach((c, j) => {
        for (const el of c.querySelectorAll('[name], [id], [for], [aria-describedby], button')) fix(el, j, 'c');
      });
      rule.querySelectorAll('[data-rb-variant]').forEach((v, k) => {
        for (const el of v.querySelectorAll('[name], [id], [for], [aria-describedby], button')) fix(el, k, 'split');
        const name = v.querySelector('[data-variant-label]');
        if (name) name.textContent = name.dataset.variantLabel.replace('{k}', String(k + 1));
      });
      for (const el of rule.querySelectorAll('[data-label]'))
        el.textContent = el.dataset.label.replace('{n}', String(i + 1));
      for (const el of rule.querySelectorAll('[data-aria-label]'))
        el.setAttribute('aria-label', el.dataset.ariaLabel.replace('{n}', String(i + 1)));
      const [up, down] = rule.querySelectorAll('.rule-row-actions > button');
      up.disabled = i === 0;
      down.disabled = i === rules.length - 1;
      sum(rule);
      mode(rule);
    });
    form.querySelector('[data-rb-empty]').hidden = rules.length > 0;
    form.querySelector('button[value="add-rule"]').disabled = rules.length >= Number(form.dataset.rulesMax);
  };

  /** The weights' sum, and the API's warning when it is not 100. */
  const sum = (rule) => {
    let total = 0;
    for (const input of rule.querySelectorAll('[data-rb-variant] input[name$="[weight]"]'))
      total += Number(input.value) || 0;
    const text = rule.querySelector('[data-rb-sum-text]');
    if (text) text.textContent = text.dataset.label.replace('{sum}', String(total));
    const warn = rule.querySelector('[data-rb-sum-warn]');
    if (warn) warn.hidden = total === 100;
  };

  /** Only the chosen way of sending shows: one URL, or the split's variants. */
  const mode = (rule) => {
    const chosen = rule.querySelector('input[name$="[mode]"]:checked')?.value ?? 'url';
    for (const part of rule.querySelectorAll('[data-rb-mode]')) part.hidden = part.dataset.rbMode !== chosen;
  };

  const focusFirst = (el) => el?.querySelector('select, input:not([type="hidden"])')?.focus();

  const act = (form, button) => {
    const [action] = button.value.split(':');
    const rule = button.closest('[data-rb-rule]');
    if (action === 'add-rule') {
      const row = cloneOf(form, 'template[data-rb-template="rule"]');
      form.querySelector('.rule-rows').append(row);
      renumber(form);
      return focusFirst(row);
    }
    if (action === 'remove-rule') {
      const next = rule.nextElementSibling ?? rule.previousElementSibling;
      rule.remove();
      renumber(form);
      return next?.querySelector('legend') ? focusFirst(next) : form.querySelector('button[value="add-rule"]').focus();
    }
    if (action === 'up' || action === 'down') {
      const other = action === 'up' ? rule.previousElementSibling : rule.nextElementSibling;
      if (!other) return;
      if (action === 'up') other.before(rule);
      else other.after(rule);
      renumber(form);
      return button.disabled
        ? rule.querySelector('.rule-row-actions > button:not([disabled])')?.focus()
        : button.focus();
    }
    const list = (name) => rule.querySelector(name);
    if (action === 'add-condition') {
      const row = cloneOf(form, 'template[data-rb-template="condition"]');
      row.querySelector('[data-rb-noscript]').hidden = true;
      list('.rule-condition-list').append(row);
      renumber(form);
      return focusFirst(row);
    }
    if (action === 'add-variant') {
      const row = cloneOf(form, 'template[data-rb-template="variant"]');
      list('.rule-variants').append(row);
      renumber(form);
      return focusFirst(row);
    }
    const item = button.closest('[data-rb-condition], [data-rb-variant]');
    if (!item) return;
    const focusAfter = item.nextElementSibling ?? item.previousElementSibling;
    item.remove();
    renumber(form);
    if (focusAfter) focusFirst(focusAfter);
    else
      rule
        .querySelector(
          action === 'remove-condition' ? 'button[value^="add-condition"]' : 'button[value^="add-variant"]',
        )
        .focus();
  };

  const ROW_ACTIONS = /^(add-rule|remove-rule|up|down|add-condition|remove-condition|add-variant|remove-variant)(:|$)/;

  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[name="intent"]') : null;
    const form = button?.closest('[data-rules-builder]');
    if (!form || !ROW_ACTIONS.test(button.value)) return;
    event.preventDefault();
    act(form, button);
  });

  document.addEventListener('change', (event) => {
    const el = event.target;
    const form = el instanceof Element ? el.closest('[data-rules-builder]') : null;
    if (!form) return;
    if (el.matches('select[name$="[kind]"]')) {
      const fields = el.closest('[data-rb-condition]').querySelector('.rule-condition-fields');
      fields.replaceChildren(form.querySelector(`template[data-rb-kind="${el.value}"]`).content.cloneNode(true));
      renumber(form);
    } else if (el.matches('input[name$="[mode]"]')) mode(el.closest('[data-rb-rule]'));
  });

  document.addEventListener('input', (event) => {
    const rule = event.target instanceof Element ? event.target.closest('[data-rb-rule]') : null;
    if (rule && event.target.matches('input[name$="[weight]"]')) sum(rule);
  });

  const start = () => {
    const form = builder();
    if (!form) return;
    for (const b of form.querySelectorAll('[data-rb-noscript]')) b.hidden = true;
    renumber(form);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}
