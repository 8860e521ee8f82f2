/**
 * An Error that serializes to JSON with its name, message and own fields:
 * a plain Error stringifies to "{}" (Carbon AI Chat reports a rejected
 * customSendMessage with JSON.stringify, and so do many loggers).
 */
export class SerializableError extends Error {
  toJSON(): Record<string, unknown> {
    return { ...Object.fromEntries(Object.entries(this)), name: this.name, message: this.message };
  }
}
