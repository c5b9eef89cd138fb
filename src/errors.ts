/**
 * Failures that the layers below the HTTP edge report in their own terms. The edge maps each
 * kind to a status and a body in one place (http/error-handler.ts); nothing below it knows HTTP.
 * Anything else that escapes is a bug, answered with a bare 500.
 */
export abstract class DomainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** A backend the request needs does not answer, or refuses for a reason of its own. */
export class BackendUnavailable extends DomainError {
  constructor(
    readonly backend: 'elasticsearch' | 'redis',
    message: string,
  ) {
    super(message);
  }
}

/** Too much is already waiting: the request is shed at once rather than queued without bound. */
export class Overloaded extends DomainError {}

/**
 * The key's account has a tier this process has no limit for (RATE_LIMIT_TIERS lacks it): the
 * service's configuration, not the client's doing, and one a rolling deploy that adds a tier
 * meets on the instances not yet updated, so the client is told to come back shortly.
 */
export class TierNotServed extends DomainError {}

/** The request asks for something that cannot be served as given; `parameter` names what to change. */
export class InvalidInput extends DomainError {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

/** A cursor's walk cannot go on: the catalogue index it began on no longer exists. */
export class CursorExpired extends DomainError {}
