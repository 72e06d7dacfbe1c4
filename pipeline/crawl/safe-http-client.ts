// Crawlee's HTTP client interface on top of the SSRF-safe fetcher, so a CheerioCrawler never
// opens a connection the address policy has not checked. GET only; the fetcher follows (and
// checks) redirects itself, so Crawlee only sees the final response.
import { Readable } from 'node:stream';
import type { BaseHttpClient, HttpRequest, HttpResponse, ResponseTypes, StreamingHttpResponse } from '@crawlee/core';
import type { SafeFetch, SafeResponse } from '../../core/net/ssrf-fetch.ts';

function headersOf(response: SafeResponse): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

function acceptOf(request: HttpRequest<keyof ResponseTypes>): string | undefined {
  const accept = request.headers?.accept ?? request.headers?.Accept;
  return Array.isArray(accept) ? accept.join(', ') : accept;
}

export class SafeHttpClient implements BaseHttpClient {
  constructor(private readonly fetcher: SafeFetch) {}

  private async get(request: HttpRequest<keyof ResponseTypes>): Promise<SafeResponse> {
    const method = (request.method ?? 'GET').toUpperCase();
    if (method !== 'GET') throw new Error(`SafeHttpClient only sends GET, not ${method}`);
    return this.fetcher(String(request.url), { accept: acceptOf(request) });
  }

  async sendRequest<T extends keyof ResponseTypes = 'text'>(request: HttpRequest<T>): Promise<HttpResponse<T>> {
    const response = await this.get(request as HttpRequest<keyof ResponseTypes>);
    const buffer = Buffer.from(response.body);
    const type = request.responseType ?? 'text';
    const body = type === 'buffer' ? buffer : type === 'json' ? JSON.parse(buffer.toString('utf8')) : buffer.toString('utf8');
    return { ...envelope(request, response), body } as HttpResponse<T>;
  }

  async stream(request: HttpRequest): Promise<StreamingHttpResponse> {
    const response = await this.get(request as HttpRequest<keyof ResponseTypes>);
    const total = response.body.byteLength;
    return {
      ...envelope(request, response),
      stream: Readable.from([Buffer.from(response.body)]),
      downloadProgress: { percent: 1, transferred: total, total },
      uploadProgress: { percent: 1, transferred: 0, total: 0 },
    };
  }
}

/** The part of Crawlee's response shape that buffered and streamed responses share. */
function envelope<R>(request: R, response: SafeResponse) {
  return {
    request,
    url: response.url,
    redirectUrls: response.redirects.map((url) => new URL(url)),
    statusCode: response.status,
    headers: headersOf(response),
    trailers: {},
    complete: true as const,
  };
}
