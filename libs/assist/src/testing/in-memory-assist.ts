import { randomUUID } from 'node:crypto';
import type { CampaignView } from '@outreach/campaigns';
import { AppError } from '@outreach/core';
import {
  CampaignDrafts,
  CampaignFigures,
  CampaignFigureSource,
  ChatSessions,
  DraftCampaignInput,
} from '../application/assist.ports';
import { PdfTextReader } from '../application/briefs/draft-campaign-from-brief.use-case';
import type { ChatMessage, ChatRole, ChatSession } from '../domain/chat';

/** Campaigns created from drafts, kept as the fields a view would show (enough for the use cases). */
export class InMemoryCampaignDrafts extends CampaignDrafts {
  readonly created: Array<{ workspaceId: string; input: DraftCampaignInput; view: CampaignView }> = [];
  readonly campaigns = new Map<string, CampaignView>();

  async create(workspaceId: string, input: DraftCampaignInput): Promise<CampaignView> {
    const view = { id: randomUUID(), name: input.name, status: 'DRAFT', channel: 'VOICE', goal: input.goal, description: input.description, agentId: input.agentId } as unknown as CampaignView;
    this.created.push({ workspaceId, input, view });
    this.campaigns.set(`${workspaceId}/${view.id}`, view);
    return view;
  }

  /** Adds a campaign of the workspace (a subset of the view's fields). */
  add(workspaceId: string, fields: Partial<CampaignView> & { id: string }): void {
    this.campaigns.set(`${workspaceId}/${fields.id}`, { name: 'Campaign', status: 'DRAFT', channel: 'VOICE', goal: null, description: null, agentId: null, ...fields } as CampaignView);
  }

  async require(workspaceId: string, campaignId: string): Promise<CampaignView> {
    const view = this.campaigns.get(`${workspaceId}/${campaignId}`);
    if (!view) throw new AppError('campaign_not_found', { message: `no campaign ${campaignId}` });
    return view;
  }
}

/** The same figures for every campaign (set `figures`). */
export class FixedCampaignFigures extends CampaignFigureSource {
  figures_: CampaignFigures = {
    contactCount: 0,
    contactsByStatus: {},
    contactsByLastOutcome: {},
    callCount: 0,
    sampledCalls: 0,
    extractionValues: {},
    evaluationValues: {},
  };

  async figures(): Promise<CampaignFigures> {
    return structuredClone(this.figures_);
  }
}

export class InMemoryChatSessions extends ChatSessions {
  readonly sessions = new Map<string, ChatSession>();
  readonly stored: ChatMessage[] = [];

  async find(workspaceId: string, campaignId: string, sessionId: string): Promise<ChatSession | null> {
    const s = this.sessions.get(sessionId);
    return s && s.workspaceId === workspaceId && s.campaignId === campaignId ? { ...s } : null;
  }

  async messages(sessionId: string, limit?: number): Promise<ChatMessage[]> {
    const all = this.stored.filter((m) => m.sessionId === sessionId);
    return limit === undefined ? all : all.slice(-limit);
  }

  async appendExchange(
    session: { id: string; workspaceId: string; campaignId: string },
    exchange: Array<{ role: ChatRole; content: string }>,
    limit: number,
    now: Date,
  ): ReturnType<ChatSessions['appendExchange']> {
    const current = this.sessions.get(session.id) ?? { ...session, userMessageCount: 0, createdAt: now, updatedAt: now };
    const questions = exchange.filter((e) => e.role === 'user').length;
    if (current.userMessageCount + questions > limit) return { stored: false };
    const last = (await this.messages(session.id)).length;
    const messages = exchange.map((e, i) => ({ id: randomUUID(), sessionId: session.id, seq: last + i + 1, role: e.role, content: e.content, createdAt: now }));
    this.stored.push(...messages);
    const updated = { ...current, userMessageCount: current.userMessageCount + questions, updatedAt: now };
    this.sessions.set(session.id, updated);
    return { stored: true, session: { ...updated }, messages };
  }
}

/** Reads "PDFs" whose bytes are their text, prefixed `%PDF-`; anything else is unreadable. */
export class FakePdfTextReader extends PdfTextReader {
  async text(bytes: Uint8Array): Promise<string> {
    const text = Buffer.from(bytes).toString('utf8');
    if (!text.startsWith('%PDF-')) throw new Error('Invalid PDF structure.');
    return text.slice(5);
  }
}
