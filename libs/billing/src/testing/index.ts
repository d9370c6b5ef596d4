export * from './fixed-wallet-balance';
