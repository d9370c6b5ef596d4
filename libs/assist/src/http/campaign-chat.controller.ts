import { Body, Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, getSchemaPath } from '@nestjs/swagger';
import { AppError, AppValidationPipe, CurrentPrincipal, errorBody, Principal, Raises, RequireScope } from '@outreach/platform';
import type { Request, Response } from 'express';
import { CampaignChat, ChatExchange } from '../application/chat/campaign-chat';
import type { ChatMessage } from '../domain/chat';
import { ChatMessageDto, ChatMessageResponse, ChatReplyResponse, ChatSessionResponse } from './assist.dto';

const bodyPipe = new AppValidationPipe();

/**
 * Campaign chat. POST answers JSON, or streams the answer as server-sent events when the client
 * sends `Accept: text/event-stream`:
 *   event: session  data: {"sessionId"}
 *   event: token    data: {"content"}          (one per token)
 *   event: done     data: ChatReplyResponse     (the exchange is stored)
 *   event: error    data: {"error", "message"}  (chat_failed / message_limit_reached after the stream began; nothing stored)
 * Every refusal before the first token is an ordinary JSON error answer.
 */
@ApiExtraModels(ChatReplyResponse)
@Controller('campaigns/:id/chat')
export class CampaignChatController {
  constructor(private readonly chat: CampaignChat) {}

  @RequireScope('campaigns.edit')
  @Post()
  @Raises('chat_failed', 'empty_message', 'campaign_not_found', 'session_not_found', 'message_limit_reached')
  @ApiOperation({
    summary: 'Ask about the campaign (its own figures ground the answer); Accept: text/event-stream streams the answer',
    description:
      'JSON: 200 ChatReplyResponse. With Accept: text/event-stream, server-sent events `session` {sessionId}, `token` {content} ' +
      '(one per token), then `done` (a ChatReplyResponse) or `error` {error, message}; nothing is stored unless `done` is sent. ' +
      'A session takes at most CHAT_MESSAGE_LIMIT messages (429 message_limit_reached). Invalid input answers 500 chat_failed ' +
      '(the contract\'s rule for the non-streaming POST); blank messages 400 empty_message.',
  })
  @ApiBody({ type: ChatMessageDto })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({
    description: 'The answer (JSON), or the answer streamed as server-sent events',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(ChatReplyResponse) } },
      'text/event-stream': { schema: { type: 'string', example: 'event: token\ndata: {"content":"Seven "}\n\n' } },
    },
  })
  async send(@CurrentPrincipal() p: Principal, @Param('id') campaignId: string, @Body() raw: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const streaming = (req.headers.accept ?? '').includes('text/event-stream');
    const body = await this.readBody(raw, streaming);
    const turn = await this.chat.prepare(p.workspaceId, { campaignId, sessionId: body.sessionId, message: body.message });
    if (!streaming) {
      res.status(200).json(this.reply(await this.chat.answer(turn)));
      return;
    }

    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const tokens = this.chat.stream(turn, abort.signal);
    // The first token is awaited before the headers: a model that fails at once is an ordinary 500 chat_failed.
    let next = await tokens.next();
    res.status(200).set({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
    const send = (event: string, data: unknown) => {
      if (!res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    send('session', { sessionId: turn.sessionId });
    try {
      while (!next.done) {
        if (abort.signal.aborted) {
          await tokens.return(undefined as never);
          return;
        }
        send('token', { content: next.value });
        next = await tokens.next();
      }
      send('done', this.reply(next.value));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      send('error', errorBody(error, (req as Request & { id?: string }).id));
    }
    if (!res.destroyed) res.end();
  }

  @RequireScope('campaigns.view')
  @Get('sessions/:sid')
  @Raises('campaign_not_found', 'session_not_found')
  @ApiOperation({ summary: 'A chat session of the campaign with its messages, oldest first' })
  @ApiOkResponse({ type: ChatSessionResponse })
  async session(@CurrentPrincipal() p: Principal, @Param('id') campaignId: string, @Param('sid') sessionId: string): Promise<ChatSessionResponse> {
    const { session, messages } = await this.chat.session(p.workspaceId, campaignId, sessionId);
    return {
      id: session.id,
      campaignId: session.campaignId,
      userMessageCount: session.userMessageCount,
      messageLimit: this.chat.messageLimit,
      messages: messages.map(toMessage),
      createdAt: session.createdAt.toISOString(),
      updatedAt: session.updatedAt.toISOString(),
    };
  }

  /** The body, checked as everywhere; on the JSON POST a refusal is 500 chat_failed (the contract's rule). */
  private async readBody(raw: unknown, streaming: boolean): Promise<ChatMessageDto> {
    try {
      return (await bodyPipe.transform(raw, { type: 'body', metatype: ChatMessageDto, data: undefined })) as ChatMessageDto;
    } catch (error) {
      if (streaming || !(error instanceof AppError) || error.code !== 'invalid_body') throw error;
      throw new AppError('chat_failed', { message: 'invalid input: send {message, sessionId?}', issues: error.options.issues });
    }
  }

  private reply(exchange: ChatExchange): ChatReplyResponse {
    const answer = exchange.messages[exchange.messages.length - 1];
    return {
      sessionId: exchange.session.id,
      reply: toMessage(answer),
      messagesLeft: Math.max(0, this.chat.messageLimit - exchange.session.userMessageCount),
    };
  }
}

function toMessage(m: ChatMessage): ChatMessageResponse {
  return { id: m.id, seq: m.seq, role: m.role, content: m.content, createdAt: m.createdAt.toISOString() };
}
