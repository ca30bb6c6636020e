// The contracts of the storage ports on their SQL stores, on both engines: one migrated database
// per engine serves every suite (each test makes its own accounts), so the contracts cost one
// migration run per engine. The fakes' runs: test/contracts/unit.
import assert from 'node:assert/strict';
import { onEachSqlEngine } from '../sql-database.ts';
import { sqlOwners } from '../sql-owners.ts';
import { describeClaimStoresContract } from '../claim-stores-contract.ts';
import { describeReservedNamesContract } from '../reserved-names-contract.ts';
import { describeImportLeasesContract } from '../import-leases-contract.ts';
import { describeLinkHealthStoreContract } from '../link-health-store-contract.ts';
import { SqlLinkHealthStore } from '../../../src/adapters/storage/stores/link-health-store.ts';
import { describeDeliveryOutboxContract, describeExpiryClaimsContract } from '../delivery-outbox-contract.ts';
import { describeClickWriterContract, sqlClickState } from '../click-writer-contract.ts';
import { describeAdminStoreContract } from '../admin-store-contract.ts';
import { describeAccountStoreContract } from '../account-store-contract.ts';
import { describeDomainStoreContract } from '../domain-store-contract.ts';
import { describeLinkStoreContract } from '../link-store-contract.ts';
import { describePixelStoreContract } from '../pixel-store-contract.ts';
import { describeSpaceStoreContract } from '../space-store-contract.ts';
import { describeSessionStoreContract } from '../session-store-contract.ts';
import { describeTagStoreContract } from '../tag-store-contract.ts';
import { describeUtmTemplateStoreContract } from '../utm-template-store-contract.ts';
import { describeWebhookStoreContract } from '../webhook-store-contract.ts';
import { describeWorkspaceStoreContract } from '../workspace-store-contract.ts';
import { describeSsoIdentityStoreContract } from '../sso-identity-store-contract.ts';
import { describeEmailVerificationStoreContract } from '../email-verification-store-contract.ts';
import { describeConversionStoreContract } from '../conversion-store-contract.ts';
import { describeAuditStoreContract } from '../audit-store-contract.ts';
import { describeLinkHistoryContract } from '../link-history-contract.ts';
import { describeRedirectSourceContract } from '../redirect-source-contract.ts';
import { describeStatsStoresContract } from '../stats-stores-contract.ts';
import { SqlClickClaimStore } from '../../../src/adapters/storage/stores/click-claim-store.ts';
import { SqlRotationStore } from '../../../src/adapters/storage/stores/rotation-store.ts';
import { SqlReservedNames } from '../../../src/adapters/storage/stores/reserved-names-store.ts';
import { SqlImportLeases } from '../../../src/adapters/storage/stores/import-lease-store.ts';
import { SqlDeliveryOutbox } from '../../../src/adapters/storage/stores/delivery-outbox.ts';
import { SqlExpiryClaims } from '../../../src/adapters/storage/stores/expiry-claims.ts';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { SqlAdminStore } from '../../../src/adapters/storage/stores/admin-store.ts';
import { SqlAccountStore } from '../../../src/adapters/storage/stores/account-store.ts';
import { SqlDomainStore } from '../../../src/adapters/storage/stores/domain-store.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlPixelStore } from '../../../src/adapters/storage/stores/pixel-store.ts';
import { SqlSpaceStore } from '../../../src/adapters/storage/stores/space-store.ts';
import { SqlSessionStore } from '../../../src/adapters/storage/stores/session-store.ts';
import { SqlTagStore } from '../../../src/adapters/storage/stores/tag-store.ts';
import { SqlUtmTemplateStore } from '../../../src/adapters/storage/stores/utm-template-store.ts';
import { SqlWebhookStore } from '../../../src/adapters/storage/stores/webhook-store.ts';
import { SqlWorkspaceStore } from '../../../src/adapters/storage/stores/workspace-store.ts';
import { SqlSsoIdentityStore } from '../../../src/adapters/storage/stores/sso-identity-store.ts';
import { SqlEmailVerificationStore } from '../../../src/adapters/storage/stores/email-verification-store.ts';
import { SqlConversionStore } from '../../../src/adapters/storage/stores/conversion-store.ts';
import { SqlAuditLog, SqlAuditStore } from '../../../src/adapters/storage/stores/audit-store.ts';
import { SqlLinkHistory } from '../../../src/adapters/storage/stores/link-history-store.ts';
import { SqlLinkSchedules } from '../../../src/adapters/storage/stores/link-schedule-store.ts';
import { SqlRedirectLinkSource } from '../../../src/adapters/storage/stores/redirect-link-source.ts';
import { CachedRedirectSource } from '../../../src/adapters/cache/cached-redirect-source.ts';
import { SqlStatsStore } from '../../../src/adapters/storage/stores/stats-store.ts';
import { SqlFilteredClickStore } from '../../../src/adapters/storage/stores/filtered-click-store.ts';
import { SqlRawClickStore } from '../../../src/adapters/storage/stores/raw-click-store.ts';
import { SqlRollupMonths } from '../../../src/adapters/storage/stores/rollup-months.ts';
import { SqlClickRetention } from '../../../src/adapters/storage/stores/click-retention.ts';
import { toBatch, writeDue } from '../../support/click-hand-over.ts';
import { newLinkFields, PRIVATE_STATS } from '../../../src/core/links/new-link-fields.ts';
import { aClick } from '../../support/clicks.ts';

onEachSqlEngine('SQL stores', (storage) => {
  let links = 0;
  const link = async (accountId: number) => {
    const { db, engine } = storage();
    const fields = {
      ...newLinkFields(null, null, PRIVATE_STATS),
      alias: `t${process.pid}x${Date.now().toString(36)}x${++links}`,
      url: 'https://example.com/',
    };
    return (await new SqlLinkStore(db, engine).insert(accountId, fields, [], 1000)).id;
  };

  describeLinkStoreContract('SqlLinkStore', () => {
    const { db, engine } = storage();
    return {
      links: new SqlLinkStore(db, engine),
      ...sqlOwners(db),
      setClicks: async (linkId, clicks) => {
        await db.updateTable('links').set({ clicks }).where('id', '=', linkId).execute();
      },
    };
  });

  describeSessionStoreContract('SqlSessionStore', {
    stores: () => ({ accounts: new SqlAccountStore(storage().db), sessions: new SqlSessionStore(storage().db) }),
  });

  describeAccountStoreContract('SqlAccountStore', () => new SqlAccountStore(storage().db));

  const account = () => sqlOwners(storage().db).account();
  describeSpaceStoreContract('SqlSpaceStore', () => ({ spaces: new SqlSpaceStore(storage().db), account }));
  describePixelStoreContract('SqlPixelStore', () => ({ pixels: new SqlPixelStore(storage().db), account }));
  describeDomainStoreContract('SqlDomainStore', () => ({ domains: new SqlDomainStore(storage().db), account }));
  describeUtmTemplateStoreContract('SqlUtmTemplateStore', () => ({
    templates: new SqlUtmTemplateStore(storage().db),
    account,
  }));

  describeTagStoreContract('SqlTagStore', () => ({
    tags: new SqlTagStore(storage().db),
    account: sqlOwners(storage().db).account,
    link,
  }));

  describeWebhookStoreContract('SqlWebhookStore', () => ({
    webhooks: new SqlWebhookStore(storage().db),
    account,
    disable: async (id, at) => {
      await storage().db.updateTable('webhooks').set({ disabled_at: at }).where('id', '=', id).execute();
    },
  }));

  describeWorkspaceStoreContract('SqlWorkspaceStore', () => {
    const { db } = storage();
    const accounts = new SqlAccountStore(db);
    return {
      workspaces: new SqlWorkspaceStore(db),
      user: async () => {
        const id = await sqlOwners(db).account();
        return { id, email: (await accounts.findById(id))!.email };
      },
      key: async (workspaceId, userId) =>
        (
          await accounts.insertKey(
            workspaceId,
            { hash: `k${workspaceId}x${userId}x${++links}x${Date.now()}`, prefix: 'lp_', name: null, userId },
            1000,
          )
        ).id,
    };
  });

  describeClaimStoresContract('SqlClickClaimStore, SqlRotationStore', () => {
    const { db, engine } = storage();
    return {
      claims: new SqlClickClaimStore(db, engine),
      rotations: new SqlRotationStore(db),
      link: async (clicks = 0) => {
        const id = await link(await account());
        await db.updateTable('links').set({ clicks }).where('id', '=', id).execute();
        return id;
      },
    };
  });

  describeReservedNamesContract('SqlReservedNames', () => new SqlReservedNames(storage().db));

  describeImportLeasesContract('SqlImportLeases', () => ({
    leases: new SqlImportLeases(storage().db),
    owner: account,
  }));

  describeLinkHealthStoreContract('SqlLinkHealthStore', () => {
    const { db, engine } = storage();
    return {
      store: new SqlLinkHealthStore(db, engine),
      account,
      link: async (accountId, url, disabled) => {
        const fields = {
          ...newLinkFields(null, null, PRIVATE_STATS),
          alias: `h${process.pid}x${Date.now().toString(36)}x${++links}`,
          url,
          disabled: disabled ? (1 as const) : (0 as const),
        };
        return (await new SqlLinkStore(db, engine).insert(accountId, fields, [], 1000)).id;
      },
      setUrl: async (linkId, url) =>
        void (await db.updateTable('links').set({ url }).where('id', '=', linkId).execute()),
    };
  });

  describeDeliveryOutboxContract('SqlDeliveryOutbox', () => {
    const { db, engine } = storage();
    return { outbox: new SqlDeliveryOutbox(db, engine), webhooks: new SqlWebhookStore(db), account };
  });

  describeExpiryClaimsContract('SqlExpiryClaims', () => {
    const { db, engine } = storage();
    return {
      expiries: new SqlExpiryClaims(db, engine),
      account,
      link: async (accountId, { endsAt, cap, clicks }) => {
        const fields = {
          ...newLinkFields(null, null, PRIVATE_STATS),
          alias: `e${process.pid}x${Date.now().toString(36)}x${++links}`,
          url: 'https://example.com/',
          endsAt: endsAt ?? null,
          expirationClicks: cap ?? null,
        };
        const id = (await new SqlLinkStore(db, engine).insert(accountId, fields, [], 1000)).id;
        if (clicks) await db.updateTable('links').set({ clicks }).where('id', '=', id).execute();
        return id;
      },
    };
  });

  // With no rollup window (rollups written with each batch) and with one that only settle() ends.
  for (const windowMs of [0, 60_000]) {
    describeClickWriterContract(`InProcessClickWriter (rollup window ${windowMs} ms)`, () => {
      const { db } = storage();
      return {
        writer: InProcessClickWriter.over(storage(), { windowMs, onError: (error) => assert.fail(error as Error) }),
        link: async () => {
          const accountId = await account();
          return { id: await link(accountId), accountId };
        },
        deleteLink: async (id) => {
          await db.deleteFrom('links').where('id', '=', id).execute();
        },
        state: sqlClickState(db),
      };
    });
  }

  describeAdminStoreContract('SqlAdminStore', () => {
    const { db, engine } = storage();
    return {
      admin: new SqlAdminStore(db),
      account: async (email) =>
        (
          await new SqlAccountStore(db).createWithPassword(
            { email, name: 'Admin contract', timezone: 'UTC' },
            'hash',
            1000,
          )
        ).id,
      link: async (accountId, { alias, url, clicks }) => {
        const id = (
          await new SqlLinkStore(db, engine).insert(
            accountId,
            { ...newLinkFields(null, null, PRIVATE_STATS), alias, url },
            [],
            1000,
          )
        ).id;
        if (clicks) await db.updateTable('links').set({ clicks }).where('id', '=', id).execute();
        return id;
      },
    };
  });
  describeSsoIdentityStoreContract('SqlSsoIdentityStore', () => {
    const { db } = storage();
    return { identities: new SqlSsoIdentityStore(db, storage().engine), accounts: new SqlAccountStore(db) };
  });

  describeEmailVerificationStoreContract('SqlEmailVerificationStore', () => ({
    store: new SqlEmailVerificationStore(storage().db),
    user: account,
  }));

  describeConversionStoreContract('SqlConversionStore', () => {
    const { db } = storage();
    return {
      conversions: new SqlConversionStore(storage()),
      link: async () => link(await account()),
      clicks: async (linkId, decisions) => {
        const accountId = (
          await db.selectFrom('links').select('account_id').where('id', '=', linkId).executeTakeFirstOrThrow()
        ).account_id;
        const at = Date.parse('2026-11-20T10:00:00Z');
        const clicks = decisions.map((d) => ({
          click: aClick({
            linkId,
            accountId,
            at,
            day: '2026-11-20',
            hour: 10,
            rule: d?.rule ?? null,
            variant: d?.variant ?? null,
          }),
        }));
        const writer = InProcessClickWriter.over(storage(), {
          windowMs: 0,
          onError: (error) => assert.fail(error as Error),
        });
        await writeDue(writer, toBatch(clicks));
      },
    };
  });

  describeLinkHistoryContract('SqlLinkHistory, SqlLinkSchedules', () => {
    const { db } = storage();
    const accounts = new SqlAccountStore(db);
    return {
      history: new SqlLinkHistory(db),
      schedules: new SqlLinkSchedules(db),
      account: async (name) => {
        const id = await account();
        const { email, timezone } = (await accounts.findById(id))!;
        await accounts.updateProfile(id, { email, name, timezone });
        return id;
      },
      link,
    };
  });

  describeAuditStoreContract('SqlAuditLog, SqlAuditStore', () => {
    const { db } = storage();
    const accounts = new SqlAccountStore(db);
    const rename = async (userId: number, name: string) => {
      const { email, timezone } = (await accounts.findById(userId))!;
      await accounts.updateProfile(userId, { email, name, timezone });
    };
    return {
      log: new SqlAuditLog(db),
      store: new SqlAuditStore(db),
      workspace: async (name) => {
        const id = await account();
        await rename(id, name);
        return id;
      },
      key: async (workspaceId, name) =>
        (
          await accounts.insertKey(
            workspaceId,
            { hash: `a${workspaceId}x${++links}x${Date.now()}`, prefix: 'lp_', name },
            1000,
          )
        ).id,
      rename,
    };
  });

  // The source alone, and the cache in front of it as the redirect has it.
  for (const cached of [false, true]) {
    describeRedirectSourceContract(
      cached ? 'CachedRedirectSource over SqlRedirectLinkSource' : 'SqlRedirectLinkSource',
      () => {
        const { db, engine } = storage();
        const appHost = 'short.test';
        return {
          appHost,
          account,
          link: async (accountId, { alias, url, domainId, disabled }) => {
            const fields = {
              ...newLinkFields(domainId ?? null, null, PRIVATE_STATS),
              alias,
              url,
              disabled: disabled ? (1 as const) : (0 as const),
            };
            return (await new SqlLinkStore(db, engine).insert(accountId, fields, [], 1000)).id;
          },
          domain: async (accountId, { verified, indexPage, notFoundPage }) => {
            const id = await sqlOwners(db).domain(accountId);
            await db
              .updateTable('domains')
              .set({
                verified_at: verified ? 1000 : null,
                index_page: indexPage ?? null,
                not_found_page: notFoundPage ?? null,
              })
              .where('id', '=', id)
              .execute();
            const { name } = await db
              .selectFrom('domains')
              .select('name')
              .where('id', '=', id)
              .executeTakeFirstOrThrow();
            return { id, name };
          },
          open: () => {
            const reads = new SqlRedirectLinkSource(db, new Set([appHost]), engine);
            if (!cached) return reads;
            return new CachedRedirectSource(reads, { ttlMs: 60_000, missTtlMs: 60_000, maxEntries: 100, appHost });
          },
        };
      },
    );
  }
  describeStatsStoresContract(
    'SqlStatsStore, SqlFilteredClickStore, SqlRawClickStore, SqlRollupMonths, SqlClickRetention',
    () => {
      const { db, engine } = storage();
      const months = new SqlRollupMonths(db, engine);
      const writer = InProcessClickWriter.over(storage(), {
        windowMs: 0,
        onError: (error) => assert.fail(error as Error),
      });
      return {
        stats: new SqlStatsStore(db, engine, months),
        filtered: new SqlFilteredClickStore(storage()),
        raw: new SqlRawClickStore(storage()),
        folder: months,
        retention: new SqlClickRetention(db, engine),
        link: async () => {
          const accountId = await account();
          return { id: await link(accountId), accountId };
        },
        write: async (clicks) => {
          await writeDue(writer, toBatch(clicks.map((click) => ({ click }))));
          await writer.settle();
        },
        deleteLink: async (id) => {
          await db.deleteFrom('links').where('id', '=', id).execute();
        },
      };
    },
  );
});
