/** Issue 70: the audit log writes ids by their names ("members : 3, 4, 6" read as the members). */
import { describe, expect, it } from 'vitest';
import { type ChangeWords, changeText } from './changeText.ts';

const names = { users: { '3': 'Léo Garnier', '4': 'Inès Roux' }, channels: { '7': 'Chantier Nord' } };
const words: ChangeWords = { field: (field) => `«${field}»`, yes: 'oui', no: 'non', colon: ' : ' };

describe('changeText', () => {
  it('names the users and channels of the fields that hold ids, and keeps a gone one as its id', () => {
    expect(changeText([3, 4, 6], 'members', names, words)).toBe('Léo Garnier, Inès Roux, #6');
    expect(changeText(7, 'channelId', names, words)).toBe('Chantier Nord');
    expect(changeText([7], 'channels', names, words)).toBe('Chantier Nord');
  });

  it('leaves the numbers of other fields as they are', () => {
    expect(changeText(3, 'minutes', names, words)).toBe('3');
    expect(changeText([], 'members', names, words)).toBe('—');
    expect(changeText(null, 'name', names, words)).toBe('—');
  });

  it('writes an object as its fields, in words, ids named at any depth', () => {
    expect(changeText({ intervalSeconds: 600, channelIds: [7], required: true }, 'loneWorker', names, words)).toBe(
      '«intervalSeconds» : 600; «channelIds» : Chantier Nord; «required» : oui',
    );
    expect(changeText({ userId: 4, name: 'Inès Roux' }, 'raisedFor', names, words)).toBe(
      '«userId» : Inès Roux; «name» : Inès Roux',
    );
  });
});
