// After tsc: the web app's stylesheet and script are files, not modules, so tsc leaves them.
import { cpSync } from 'node:fs';

cpSync('src/adapters/web/ui/assets', 'dist/adapters/web/ui/assets', { recursive: true });
