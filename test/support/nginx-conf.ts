import { join } from 'node:path';

export interface NginxOptions {
  /** The directory nginx runs in (`-p`): its pid file and temporary files go there. */
  dir: string;
  /** Loopback port nginx listens on. */
  port: number;
  /** Loopback ports of the linkpix instances. */
  upstreams: number[];
}

/**
 * nginx as the load balancer of several linkpix instances (deploy/nginx.conf is the same for
 * compose). Every path is inside `dir`, so it runs as any user, next to a system nginx.
 */
export function nginxConf({ dir, port, upstreams }: NginxOptions): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  return `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 4096; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  upstream linkpix {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
${LOCATION}
  }
}
`;
}

/** What every proxied request gets: the part deploy/nginx.conf repeats. */
const LOCATION = `    location / {
      proxy_pass http://linkpix;
      # Keep-alive to the instances: HTTP/1.1 without the client's Connection header.
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # Set, not appended: a client's own X-Forwarded-For never reaches linkpix (TRUST_PROXY).
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A stopping or dead instance refuses or drops the connection: the visit goes to the next
      # instance. nginx retries only idempotent methods (no non_idempotent), so a POST is never
      # sent twice.
      proxy_next_upstream error timeout;
      proxy_next_upstream_timeout 10s;
      proxy_connect_timeout 2s;
    }`;
