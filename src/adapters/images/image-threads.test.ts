import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { UnavailableError } from '../../core/shared/errors.ts';
import { IMAGE_THREADS, ImageThreads } from './image-threads.ts';

test('a read runs in the thread; past the thread and its queue, a read is refused at once, not queued', async () => {
  const threads = new ImageThreads();
  try {
    const png = PNG.sync.write(new PNG({ width: 512, height: 512 }));
    const read = await threads.run('readLogo', png);
    assert.ok('logo' in read && read.logo.type === 'png' && read.logo.bytes.length === png.length);
    const taken = Array.from({ length: 17 }, () => threads.run('readLogo', png));
    await assert.rejects(
      threads.run('readLogo', png),
      (e: unknown) => e instanceof UnavailableError && e.dependency === IMAGE_THREADS,
    );
    for (const answer of await Promise.all(taken)) assert.ok('logo' in answer);
    assert.ok('logo' in (await threads.run('readLogo', png)), 'the places are given back');
  } finally {
    await threads.close();
  }
});
