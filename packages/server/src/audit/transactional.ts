/**
 * One transaction around an administrator's call, without threading it through every store: the stores get
 * a database handle that, inside `run`, sends every query to that call's transaction (AsyncLocalStorage),
 * and elsewhere to the database itself. Domain events emitted inside wait for the commit (listeners must not
 * push a change that may still roll back), and a store's own transaction joins the open one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Database, Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';

interface Scope {
  root: Db;
  trx: Transaction<Database>;
  open: boolean;
  afterCommit: Array<() => void>;
}

const scopes = new AsyncLocalStorage<Scope>();

export function transactional(root: Db) {
  const scope = () => {
    const current = scopes.getStore();
    return current && current.root === root && current.open ? current : undefined;
  };
  const db = new Proxy(root, {
    get(_target, property) {
      const open = scope();
      if (property === 'transaction' && open) {
        return () => ({ execute: <T>(work: (trx: Transaction<Database>) => Promise<T>) => work(open.trx) });
      }
      const target = open ? open.trx : root;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Db;

  return {
    db,
    /** Runs `work` in one transaction; events it emitted are delivered once committed (none if it failed). */
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (scope()) return work();
      const afterCommit: Array<() => void> = [];
      const result = await root.transaction().execute((trx) => {
        const opened: Scope = { root, trx, open: true, afterCommit };
        return scopes.run(opened, async () => {
          try {
            return await work();
          } finally {
            opened.open = false;
          }
        });
      });
      for (const deliver of afterCommit) deliver();
      return result;
    },
    /** The bus, with emits made inside `run` held until the commit. */
    deferEvents(bus: EventBus): EventBus {
      return {
        ...bus,
        emit(name, event) {
          const open = scope();
          if (open) open.afterCommit.push(() => bus.emit(name, event));
          else bus.emit(name, event);
        },
      };
    },
  };
}

export type Transactional = ReturnType<typeof transactional>;
