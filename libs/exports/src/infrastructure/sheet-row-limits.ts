import { Injectable } from '@nestjs/common';
import { RowLimits } from '../application/exports.ports';
import { XLSX_MAX_DATA_ROWS } from '../domain/export-format';

/** The real sheet limit. Tests that provoke excel_row_limit_exceeded override RowLimits (decisions.md 26.7). */
@Injectable()
export class SheetRowLimits extends RowLimits {
  xlsxMaxRows(): number {
    return XLSX_MAX_DATA_ROWS;
  }
}
