import { Controller, ExecutionContext, Post } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, throwError } from 'rxjs';
import { AppError, defineErrors, ErrorCode } from '@outreach/core';
import { AnswerErrors, answeredError, declaredErrorStatuses, verifyDeclaredErrorStatuses } from './error-status.decorator';
import { ErrorStatusInterceptor } from './error-status.interceptor';

@Controller()
@AnswerErrors({ invalid_phone: 400, agent_not_found: 400 })
class ExampleController {
  @Post()
  @AnswerErrors({ agent_not_found: 404, agent_not_provisioned: 409 })
  place(): void {}

  @Post()
  plain(): void {}
}

const contextOf = (handler: keyof ExampleController) =>
  ({ getClass: () => ExampleController, getHandler: () => ExampleController.prototype[handler] }) as unknown as ExecutionContext;

async function answered(handler: keyof ExampleController, error: unknown): Promise<unknown> {
  const interceptor = new ErrorStatusInterceptor(new Reflector());
  return lastValueFrom(interceptor.intercept(contextOf(handler), { handle: () => throwError(() => error) })).catch((e: unknown) => e);
}

describe('@AnswerErrors: the route chooses the status of a code', () => {
  it('merges the controller statuses with the method ones, the method winning', () => {
    expect(declaredErrorStatuses(new Reflector(), contextOf('place'))).toEqual({ invalid_phone: 400, agent_not_found: 404, agent_not_provisioned: 409 });
    expect(declaredErrorStatuses(new Reflector(), contextOf('plain'))).toEqual({ invalid_phone: 400, agent_not_found: 400 });
  });

  it('refuses, when the class loads, a status the catalogue does not list for the code', () => {
    expect(() => AnswerErrors({ invalid_phone: 409 })).toThrow('status 409 is not allowed for error code invalid_phone');
  });

  it('defers the check of a code whose module is not loaded yet to the boot (the first interceptor)', () => {
    const late = 'late_module_code' as ErrorCode;
    expect(() => AnswerErrors({ [late]: 418 })).not.toThrow();
    defineErrors('late-module', { late_module_code: { status: 409, message: 'registered after the controller loaded' } });
    expect(() => verifyDeclaredErrorStatuses()).toThrow('status 418 is not allowed for error code late_module_code');
    expect(() => verifyDeclaredErrorStatuses()).not.toThrow(); // checked once
  });

  it('answers a declared code with the route status, keeping message, issues, detail and headers', async () => {
    const raised = new AppError('invalid_phone', { message: 'bad toNumber', issues: [{ path: 'toNumber', message: 'x' }], detail: { n: 1 }, headers: { 'X-A': '1' } });
    const error = (await answered('place', raised)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect({ code: error.code, status: error.status, message: error.message }).toEqual({ code: 'invalid_phone', status: 400, message: 'bad toNumber' });
    expect(error.options).toMatchObject({ issues: raised.options.issues, detail: { n: 1 }, headers: { 'X-A': '1' } });
    expect(((await answered('place', new AppError('agent_not_provisioned'))) as AppError).status).toBe(409);
    expect(((await answered('place', new AppError('agent_not_found'))) as AppError).status).toBe(404);
    expect(((await answered('plain', new AppError('agent_not_found'))) as AppError).status).toBe(400);
  });

  it('leaves undeclared codes and other errors as they are', async () => {
    const other = new AppError('do_not_call');
    expect(await answered('place', other)).toBe(other);
    const bug = new Error('boom');
    expect(await answered('place', bug)).toBe(bug);
    const declaredAlready = new AppError('invalid_phone', { status: 400 });
    expect(answeredError(declaredAlready, { invalid_phone: 400 })).toBe(declaredAlready);
  });
});
