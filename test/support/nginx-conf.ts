import { join } from 'node:path';
import { ROOT } from './processes.ts';

export interface NginxOptions {
  /** The directory nginx runs in (`-p`): its pid file and temporary files go there. */
  dir: string;
  /** Loopback port nginx listens on. */
  port: number;
  /** Loopback ports of the linkpix instances. */
  upstreams: number[];
  /** Files included at the `http` level (a map) and in the `server` (its locations), after the proxying ones. */
  include?: { http?: string[]; server?: string[] };
}

/**
 * nginx as the load balancer of several linkpix instances, with deploy/nginx-proxy.conf (as
 * compose's deploy/nginx.conf). Every path is inside `dir`, so it runs as any user, next to a
 * system nginx.
 */
export function nginxConf({ dir, port, upstreams, include = {} }: NginxOptions): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  const includes = (files: string[] = [], indent: string) => files.map((f) => `${indent}include "${f}";\n`).join('');
  return `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
${includes(include.http, '  ')}  upstream linkpix {
${upstreams.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      include "${join(ROOT, 'deploy', 'nginx-proxy.conf')}";
    }
${includes(include.server, '    ')}  }
}
`;
}
