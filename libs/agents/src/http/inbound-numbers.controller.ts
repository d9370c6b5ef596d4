import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { AnswerErrors, CurrentPrincipal, Principal, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { PhoneNumberResponse, toPhoneNumberResponse } from '@outreach/telephony';
import { IsString, Length, ValidateIf } from 'class-validator';
import { AssignInboundNumber } from '../application/assign-inbound-number.use-case';

export class InboundAgentDto {
  @ApiProperty({ type: String, nullable: true, description: 'An ACTIVE or PROVISIONING INBOUND agent of the workspace; null clears the assignment' })
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @Length(1, 100)
  agentId: string | null;
}

/** Numbers ↔ INBOUND agents (decisions.md 36.1); the workspace feature `inbound`. */
@RequireFeature('inbound')
@Controller()
export class InboundNumbersController {
  constructor(private readonly assign: AssignInboundNumber) {}

  @RequireScope('phone_numbers.edit')
  @Put('phone-numbers/:id/inbound-agent')
  @Raises('phone_number_not_found', 'agent_not_found', 'agent_archived', 'agent_type_not_inbound', 'phone_number_not_synced')
  @AnswerErrors({ agent_not_found: 400 })
  @ApiOperation({ summary: 'Assign the INBOUND agent that answers calls to a workspace number (null clears it)' })
  @ApiOkResponse({ type: PhoneNumberResponse })
  async put(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: InboundAgentDto): Promise<PhoneNumberResponse> {
    return toPhoneNumberResponse(await this.assign.execute(p.workspaceId, id, body.agentId));
  }
}
