import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, Public, Raises, RequireFeature, RequireScope } from '@outreach/platform';
import { ChatbotAnswer, Chatbots, ChatbotView } from '../application/chatbots';
import {
  ChatbotAnswerResponse,
  ChatbotListResponse,
  ChatbotMessageDto,
  ChatbotResponse,
  CreateChatbotDto,
  RotateEmbedKeyDto,
  UpdateChatbotDto,
} from './knowledge.dto';

/** Chatbots that answer from knowledge bases, with a rotatable embed key (decisions.md 39.7). */
@RequireFeature('knowledge')
@Controller('chatbots')
export class ChatbotsController {
  constructor(private readonly chatbots: Chatbots) {}

  @RequireScope('documents.edit')
  @Post()
  @Raises('knowledge_base_not_found')
  @ApiOperation({ summary: 'Create a chatbot over knowledge bases (ACTIVE unless told otherwise)' })
  @ApiCreatedResponse({ type: ChatbotResponse })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateChatbotDto): Promise<ChatbotView> {
    return this.chatbots.create(p.workspaceId, body);
  }

  @RequireScope('documents.view')
  @Get()
  @ApiOperation({ summary: "The workspace's chatbots (unpaginated)" })
  @ApiOkResponse({ type: ChatbotListResponse })
  async list(@CurrentPrincipal() p: Principal): Promise<ChatbotListResponse> {
    return { chatbots: await this.chatbots.list(p.workspaceId) };
  }

  @RequireScope('documents.view')
  @Get(':id')
  @Raises('chatbot_not_found')
  @ApiOperation({ summary: 'One chatbot' })
  @ApiOkResponse({ type: ChatbotResponse })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ChatbotView> {
    return this.chatbots.get(p.workspaceId, id);
  }

  @RequireScope('documents.edit')
  @Patch(':id')
  @Raises('chatbot_not_found', 'knowledge_base_not_found', 'no_fields_to_update')
  @ApiOperation({ summary: 'Change a chatbot: name, instructions, status (ACTIVE | DISABLED), knowledge bases (replaced)' })
  @ApiOkResponse({ type: ChatbotResponse })
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateChatbotDto): Promise<ChatbotView> {
    return this.chatbots.update(p.workspaceId, id, body);
  }

  @RequireScope('documents.edit')
  @Delete(':id')
  @HttpCode(204)
  @Raises('chatbot_not_found')
  @ApiOperation({ summary: 'Delete a chatbot and its sessions' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    await this.chatbots.delete(p.workspaceId, id);
  }

  @RequireScope('documents.edit')
  @Post(':id/embed-key/rotate')
  @HttpCode(200)
  @Raises('chatbot_not_found', 'rotation_conflict')
  @ApiOperation({
    summary: 'Replace the embed key; the old key stops working at once',
    description: 'Send fromVersion (the embedKeyVersion you read): of two rotations from the same version exactly one wins, the other is 409 rotation_conflict.',
  })
  @ApiOkResponse({ type: ChatbotResponse })
  rotate(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: RotateEmbedKeyDto): Promise<ChatbotView> {
    return this.chatbots.rotateEmbedKey(p.workspaceId, id, body.fromVersion);
  }

  @RequireScope('documents.view')
  @Post(':id/chat')
  @HttpCode(200)
  @Raises('chatbot_not_found', 'session_not_found', 'empty_message', 'chat_failed', 'invalid_request')
  @ApiOperation({ summary: 'Ask the chatbot: it answers from the best passages of its knowledge bases (400 invalid_request when DISABLED)' })
  @ApiOkResponse({ type: ChatbotAnswerResponse })
  chat(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: ChatbotMessageDto): Promise<ChatbotAnswer> {
    return this.chatbots.ask(p.workspaceId, id, body);
  }
}

/** The embedded widget's route: the chatbot's embed key instead of an API key. */
@Controller('embed')
export class EmbedChatController {
  constructor(private readonly chatbots: Chatbots) {}

  @Public()
  @Post('chat')
  @HttpCode(200)
  @Raises('chatbot_not_found', 'session_not_found', 'empty_message', 'chat_failed', 'invalid_request')
  @ApiOperation({ summary: "A website's chatbot widget asks a question with the chatbot's embed key (a rotated-away key is 404 chatbot_not_found)" })
  @ApiHeader({ name: 'X-Embed-Key', required: true, description: 'The chatbot’s current embedKey' })
  @ApiOkResponse({ type: ChatbotAnswerResponse })
  chat(@Headers('x-embed-key') embedKey: string | undefined, @Body() body: ChatbotMessageDto): Promise<ChatbotAnswer> {
    return this.chatbots.askByEmbedKey(embedKey ?? '', body);
  }
}
