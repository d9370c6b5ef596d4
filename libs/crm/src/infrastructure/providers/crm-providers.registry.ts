import { Injectable } from '@nestjs/common';
import { CrmProvider, CrmProviders } from '../../application/crm.ports';
import { HubspotCrmProvider } from './hubspot.provider';
import { PipedriveCrmProvider } from './pipedrive.provider';
import { SandboxCrmProvider } from './sandbox-crm.provider';
import { ShopifyCrmProvider } from './shopify.provider';

/** The catalogue of GET /crm/providers, in this order. */
@Injectable()
export class AdapterCrmProviders extends CrmProviders {
  private readonly list: readonly CrmProvider[];

  constructor(sandbox: SandboxCrmProvider, hubspot: HubspotCrmProvider, shopify: ShopifyCrmProvider, pipedrive: PipedriveCrmProvider) {
    super();
    this.list = [sandbox, hubspot, shopify, pipedrive];
  }

  all(): readonly CrmProvider[] {
    return this.list;
  }
}
