// A domain's app-link files (docs/design/domains.md): the shapes Apple and Google read, each fault named
// by its path, JSON text taken as a form sends it, the text to serve answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldErrorBag } from '../shared/errors.ts';
import {
  APP_SITE_FILE_MAX,
  checkAppleAppSiteAssociation,
  checkAssetLinks,
  servedAppSiteFile,
} from './app-site-files.ts';

const PRINT = Array.from({ length: 32 }, () => 'AB').join(':');

test('apple-app-site-association: applinks details, webcredentials and appclips; text or JSON; null clears', () => {
  const ok = {
    applinks: { details: [{ appID: 'ABCDE12345.com.example.app', paths: ['/shop/*', 'NOT /admin/*'] }] },
    webcredentials: { apps: ['ABCDE12345.com.example.app'] },
  };
  const bag = new FieldErrorBag();
  assert.equal(checkAppleAppSiteAssociation(bag, 'f', ok), JSON.stringify(ok));
  assert.equal(checkAppleAppSiteAssociation(bag, 'f', JSON.stringify(ok)), JSON.stringify(ok));
  assert.equal(checkAppleAppSiteAssociation(bag, 'f', null), null);
  assert.equal(checkAppleAppSiteAssociation(bag, 'f', ''), null);
  assert.equal(checkAppleAppSiteAssociation(bag, 'f', undefined), undefined);
  assert.equal(bag.has('f'), false);
});

test('apple-app-site-association: each fault by its path', () => {
  const cases: Array<[unknown, string]> = [
    ['{', 'f'],
    [[], 'f'],
    [{}, 'f'],
    [{ applinks: [] }, 'f.applinks'],
    [{ applinks: {} }, 'f.applinks.details'],
    [{ applinks: { details: ['x'] } }, 'f.applinks.details.0'],
    [{ applinks: { details: [{ appIDs: ['short.id'], paths: ['/'] }] } }, 'f.applinks.details.0.appIDs'],
    [{ applinks: { details: [{ appID: 'ABCDE12345.com.example.app' }] } }, 'f.applinks.details.0'],
    [
      { applinks: { details: [{ appIDs: null, appID: 'ABCDE12345.com.example.app', paths: ['/'] }] } },
      'f.applinks.details.0.appIDs',
    ],
    [{ applinks: { details: [{ appID: null, paths: ['/'] }] } }, 'f.applinks.details.0.appID'],
    [{ applinks: { details: [{ appID: 'ABCDE12345.com.example.app', paths: [1] }] } }, 'f.applinks.details.0.paths'],
    [{ webcredentials: { apps: 'ABCDE12345.com.example.app' } }, 'f.webcredentials.apps'],
    [{ activitycontinuation: { apps: ['nope'] } }, 'f.activitycontinuation.apps'],
    [
      { applinks: { details: [{ appID: 'ABCDE12345.com.example.app', components: ['x'] }] } },
      'f.applinks.details.0.components.0',
    ],
    [
      { applinks: { details: [{ appID: 'ABCDE12345.com.example.app', components: [{ '/': 1 }] }] } },
      'f.applinks.details.0.components.0./',
    ],
    [
      { applinks: { details: [{ appID: 'ABCDE12345.com.example.app', components: [{ exclude: 'yes' }] }] } },
      'f.applinks.details.0.components.0.exclude',
    ],
    [{ applinks: { details: [], defaults: { caseSensitive: 'no' } } }, 'f.applinks.defaults.caseSensitive'],
    [{ applinks: { details: [], substitutionVariables: { food: 'pizza' } } }, 'f.applinks.substitutionVariables'],
  ];
  for (const [value, field] of cases) {
    const bag = new FieldErrorBag();
    assert.equal(checkAppleAppSiteAssociation(bag, 'f', value), undefined, JSON.stringify(value));
    assert.equal(bag.has(field), true, `${JSON.stringify(value)} → ${field}`);
  }
});

test('assetlinks: Android app and web statements; each fault by its path', () => {
  const ok = [
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: { namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [PRINT] },
    },
    {
      relation: ['delegate_permission/common.get_login_creds'],
      target: { namespace: 'web', site: 'https://example.com' },
    },
  ];
  const good = new FieldErrorBag();
  assert.equal(checkAssetLinks(good, 'a', ok), JSON.stringify(ok));
  assert.equal(good.has('a'), false);
  const target = (t: object) => [{ relation: ['x'], target: t }];
  const cases: Array<[unknown, string]> = [
    [{}, 'a'],
    [[], 'a'],
    [['x'], 'a.0'],
    [[{ relation: [], target: { namespace: 'web', site: 'https://example.com' } }], 'a.0.relation'],
    [[{ relation: ['x'] }], 'a.0.target'],
    [target({ namespace: 'ios_app' }), 'a.0.target.namespace'],
    [
      target({ namespace: 'android_app', package_name: 'app', sha256_cert_fingerprints: [PRINT] }),
      'a.0.target.package_name',
    ],
    [
      target({ namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [] }),
      'a.0.target.sha256_cert_fingerprints',
    ],
    [
      target({ namespace: 'android_app', package_name: 'com.example.app', sha256_cert_fingerprints: [PRINT, 'ab:cd'] }),
      'a.0.target.sha256_cert_fingerprints.1',
    ],
    [target({ namespace: 'web', site: 'https://example.com/path' }), 'a.0.target.site'],
  ];
  for (const [value, field] of cases) {
    const bag = new FieldErrorBag();
    assert.equal(checkAssetLinks(bag, 'a', value), undefined, JSON.stringify(value));
    assert.equal(bag.has(field), true, `${JSON.stringify(value)} → ${field}`);
  }
});

test('a file larger than the bound is refused', () => {
  const paths = Array.from({ length: APP_SITE_FILE_MAX / 8 }, (_, i) => `/p${i}/*`);
  const bag = new FieldErrorBag();
  assert.equal(
    checkAppleAppSiteAssociation(bag, 'f', { applinks: { details: [{ appID: 'ABCDE12345.com.example.app', paths }] } }),
    undefined,
  );
  assert.equal(bag.has('f'), true);
});

test('a file is answered normalised: keys Apple and Google do not read are dropped, at every level checked', () => {
  const bag = new FieldErrorBag();
  const aasa = {
    applinks: {
      apps: [],
      details: [
        {
          appID: 'ABCDE12345.com.example.app',
          paths: ['/'],
          components: [{ '#': 'top', '?': 'q=1', comment: 'c', caseSensitive: true, x: 1 }],
          y: 2,
        },
      ],
      substitutionVariables: { food: ['pizza'] },
      z: 3,
    },
    activitycontinuation: { apps: ['ABCDE12345.com.example.app'], w: 4 },
    extra: true,
  };
  assert.deepEqual(JSON.parse(checkAppleAppSiteAssociation(bag, 'f', aasa)!), {
    applinks: {
      apps: [],
      details: [
        {
          appID: 'ABCDE12345.com.example.app',
          paths: ['/'],
          components: [{ '#': 'top', comment: 'c', '?': 'q=1', caseSensitive: true }],
        },
      ],
      substitutionVariables: { food: ['pizza'] },
    },
    activitycontinuation: { apps: ['ABCDE12345.com.example.app'] },
  });
  const statement = {
    relation: ['delegate_permission/common.handle_all_urls'],
    target: { namespace: 'web', site: 'https://example.com', port: 1 },
    relation_extensions: { 'delegate_permission/common.handle_all_urls': { dynamic_app_link_components: [] } },
    other: 1,
  };
  assert.deepEqual(JSON.parse(checkAssetLinks(bag, 'a', [statement])!), [
    {
      relation: statement.relation,
      target: { namespace: 'web', site: 'https://example.com' },
      relation_extensions: statement.relation_extensions,
    },
  ]);
  assert.equal(bag.has('f') || bag.has('a'), false);
});

test('a stored file is served normalised; one the check refuses today is served as saved', () => {
  const saved = JSON.stringify({ webcredentials: { apps: ['ABCDE12345.com.example.app'] }, old: 1 });
  assert.equal(
    servedAppSiteFile(saved, checkAppleAppSiteAssociation),
    JSON.stringify({ webcredentials: { apps: ['ABCDE12345.com.example.app'] } }),
  );
  const refused = JSON.stringify({ webcredentials: { apps: ['lowercase.id'] } });
  assert.equal(servedAppSiteFile(refused, checkAppleAppSiteAssociation), refused);
  assert.equal(servedAppSiteFile(null, checkAssetLinks), null);
});
