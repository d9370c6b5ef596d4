import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScope } from '@outreach/platform';
import { PhoneNumberAdministration } from '../application/phone-number-administration';
import { PhoneNumberView } from '../application/telephony.ports';

export class PhoneNumberResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '+14155550123', description: 'E.164' }) e164: string;
  @ApiProperty({ example: 'sandbox' }) carrier: string;
  @ApiProperty({ description: 'Whether the carrier is enabled for the workspace; numbers on a disabled carrier cannot be used' })
  carrierEnabled: boolean;
  @ApiProperty({ description: 'Can receive calls' }) inbound: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'The INBOUND agent answering calls to this number (PUT /phone-numbers/{id}/inbound-agent)' })
  inboundAgentId: string | null;
}

export class PhoneNumberListResponse {
  @ApiProperty({ type: [PhoneNumberResponse] }) phoneNumbers: PhoneNumberResponse[];
}

export function toPhoneNumberResponse(view: PhoneNumberView): PhoneNumberResponse {
  return {
    id: view.id,
    e164: view.e164,
    carrier: view.carrier,
    carrierEnabled: view.carrierEnabled,
    inbound: view.inbound,
    createdAt: view.createdAt,
    inboundAgentId: view.inboundAgentId,
  };
}

@Controller()
export class PhoneNumbersController {
  constructor(private readonly numbers: PhoneNumberAdministration) {}

  /** The workspace's numbers (unpaginated configuration list). Numbers are added by the operator. */
  @RequireScope('phone_numbers.view')
  @Get('phone-numbers')
  @ApiOperation({ summary: 'The workspace caller-ID numbers (unpaginated; the operator adds them)' })
  @ApiOkResponse({ type: PhoneNumberListResponse })
  async list(@CurrentPrincipal() principal: Principal): Promise<PhoneNumberListResponse> {
    const views = await this.numbers.list(principal.workspaceId);
    return { phoneNumbers: views.map(toPhoneNumberResponse) };
  }
}
