import { Injectable } from '@nestjs/common';
import { AppConfig, Clock } from '@outreach/core';
import { assertTariffAmount, voiceCost } from '../domain/tariff';
import { TariffRepository } from './wallet.ports';

export interface TariffRates {
  /** Price of one started minute of an answered call, minor units. */
  voiceMinuteMinor: number;
  /** Price of one message, minor units. */
  messageMinor: number;
}

/**
 * Prices per workspace: an override row where the operator set one, else the defaults from
 * config (TARIFF_VOICE_MINUTE_MINOR, TARIFF_MESSAGE_MINOR).
 */
@Injectable()
export class Tariffs {
  constructor(
    private readonly tariffs: TariffRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async rates(workspaceId: string): Promise<TariffRates> {
    const override = await this.tariffs.find(workspaceId);
    return {
      voiceMinuteMinor: override?.voiceMinuteMinor ?? this.config.tariffVoiceMinuteMinor,
      messageMinor: override?.messageMinor ?? this.config.tariffMessageMinor,
    };
  }

  /** Price of an answered call: per STARTED minute (61 s = 2 minutes); 0 ms costs 0. */
  async voiceCostMinor(workspaceId: string, durationMs: number): Promise<number> {
    return voiceCost(durationMs, (await this.rates(workspaceId)).voiceMinuteMinor);
  }

  /** voiceCostMinor of several answered calls of one workspace, its rates read once. */
  async voiceCostsMinor(workspaceId: string, durationsMs: readonly number[]): Promise<number[]> {
    if (durationsMs.length === 0) return [];
    const { voiceMinuteMinor } = await this.rates(workspaceId);
    return durationsMs.map((durationMs) => voiceCost(durationMs, voiceMinuteMinor));
  }

  async messageCostMinor(workspaceId: string): Promise<number> {
    return (await this.rates(workspaceId)).messageMinor;
  }

  /** Operator override for one workspace; null puts a price back to the default. */
  async setOverride(workspaceId: string, input: { voiceMinuteMinor: number | null; messageMinor: number | null }): Promise<TariffRates> {
    assertTariffAmount('voiceMinuteMinor', input.voiceMinuteMinor);
    assertTariffAmount('messageMinor', input.messageMinor);
    await this.tariffs.save(workspaceId, input, this.clock.now());
    return this.rates(workspaceId);
  }
}
