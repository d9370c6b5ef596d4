import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@outreach/platform';
import { SpeechTranslation, SpeechTranslations } from '../../application/assist.ports';
import { SPEECH_TRANSLATIONS } from './speech-translation.table';

type Row = Record<string, unknown>;
const T = SPEECH_TRANSLATIONS.c;

@Injectable()
export class SqlSpeechTranslations extends SpeechTranslations {
  constructor(private readonly tx: TransactionHost) {
    super();
  }

  async find(workspaceId: string, callId: string, language: string): Promise<SpeechTranslation | null> {
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${SPEECH_TRANSLATIONS.select()} FROM ${SPEECH_TRANSLATIONS.name} WHERE ${T.callId} = $1 AND ${T.workspaceId} = $2 AND ${T.language} = $3`,
      [callId, workspaceId, language],
    );
    return rows[0] ? SPEECH_TRANSLATIONS.fromRow(rows[0]) : null;
  }

  async forCalls(workspaceId: string, callIds: string[]): Promise<Map<string, SpeechTranslation[]>> {
    const byCall = new Map<string, SpeechTranslation[]>();
    if (callIds.length === 0) return byCall;
    const rows: Row[] = await this.tx.manager.query(
      `SELECT ${SPEECH_TRANSLATIONS.select()} FROM ${SPEECH_TRANSLATIONS.name}
        WHERE ${T.workspaceId} = $1 AND ${T.callId} = ANY($2::uuid[]) ORDER BY ${T.createdAt}, ${T.language}`,
      [workspaceId, callIds],
    );
    for (const row of rows) {
      const t = SPEECH_TRANSLATIONS.fromRow(row);
      byCall.set(t.callId, [...(byCall.get(t.callId) ?? []), t]);
    }
    return byCall;
  }

  async save(translation: SpeechTranslation): Promise<SpeechTranslation> {
    const insert = SPEECH_TRANSLATIONS.insert(translation, `ON CONFLICT (${T.callId}, ${T.language}) DO NOTHING`);
    await this.tx.manager.query(insert.sql, insert.params);
    // A concurrent request may have stored its translation first: everyone answers the stored one.
    return (await this.find(translation.workspaceId, translation.callId, translation.language)) ?? translation;
  }
}
