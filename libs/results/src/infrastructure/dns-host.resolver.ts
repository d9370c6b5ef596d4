import { lookup } from 'node:dns/promises';
import { Injectable } from '@nestjs/common';
import { HostResolver } from '../application/results.ports';

@Injectable()
export class DnsHostResolver extends HostResolver {
  async resolve(hostname: string): Promise<string[] | null> {
    try {
      const addresses = await lookup(hostname, { all: true, verbatim: true });
      return addresses.map((a) => a.address);
    } catch {
      return null;
    }
  }
}
