/**
 * The server's sentences about signing in (accounts, sessions, passwords, second factors, passkeys, single
 * sign-on), by code and language; server-texts.ts holds them with the others.
 */
import type { ServerLanguage, ServerMessageCode } from '@talkgroup/protocol';

type Texts = Record<ServerLanguage, string>;

export const SIGN_IN_TEXTS = {
  login_ok: { en: 'Login successful', fr: 'Connexion réussie', de: 'Anmeldung erfolgreich' },
  signed_out: { en: 'Signed out.', fr: 'Déconnecté.', de: 'Abgemeldet.' },
  sso_code_invalid: {
    en: 'This single sign-on has expired or was already used: sign in again.',
    fr: 'Cette authentification unique a expiré ou a déjà servi : connectez-vous à nouveau.',
    de: 'Diese Einmalanmeldung ist abgelaufen oder wurde schon verwendet: Melden Sie sich erneut an.',
  },
  password_sign_in_off: {
    en: 'Sign-in with a password is turned off here: use single sign-on.',
    fr: 'La connexion par mot de passe est désactivée ici : utilisez l’authentification unique.',
    de: 'Die Anmeldung mit Passwort ist hier abgeschaltet: Verwenden Sie die Einmalanmeldung.',
  },
  sso_code_other_browser: {
    en: 'This single sign-on was started in another browser: start it again here.',
    fr: 'Cette authentification unique a été lancée dans un autre navigateur : recommencez-la ici.',
    de: 'Diese Einmalanmeldung wurde in einem anderen Browser begonnen: Beginnen Sie sie hier neu.',
  },
  sso_off: {
    en: 'Single sign-on is not set up on this server.',
    fr: 'L’authentification unique n’est pas configurée sur ce serveur.',
    de: 'Die Einmalanmeldung ist auf diesem Server nicht eingerichtet.',
  },
  sso_not_linked: {
    en: 'Your account is not linked to the identity provider: confirm with your password or a code.',
    fr: 'Votre compte n’est pas lié au fournisseur d’identité : confirmez avec votre mot de passe ou un code.',
    de: 'Ihr Konto ist nicht mit dem Identitätsanbieter verknüpft: Bestätigen Sie mit Ihrem Passwort oder einem Code.',
  },
  sso_link_exists: {
    en: 'Your account is already linked to an identity at this provider: unlink it first.',
    fr: 'Votre compte est déjà lié à une identité chez ce fournisseur : supprimez d’abord ce lien.',
    de: 'Ihr Konto ist bereits mit einer Identität bei diesem Anbieter verknüpft: Heben Sie diese Verknüpfung zuerst auf.',
  },
  identity_link_not_found: {
    en: 'No such link to the identity provider.',
    fr: 'Ce lien avec le fournisseur d’identité n’existe pas.',
    de: 'Diese Verknüpfung mit dem Identitätsanbieter gibt es nicht.',
  },
  identity_request_not_found: {
    en: 'This pending sign-in no longer exists.',
    fr: 'Cette connexion en attente n’existe plus.',
    de: 'Diese wartende Anmeldung gibt es nicht mehr.',
  },
  unlink_sso_only: {
    en: 'Your organisation signs in through the identity provider only: the link stays (an administrator can remove it).',
    fr: 'Votre organisation se connecte uniquement par le fournisseur d’identité : le lien reste (un administrateur peut le supprimer).',
    de: 'Ihre Organisation meldet sich nur über den Identitätsanbieter an: Die Verknüpfung bleibt (ein Administrator kann sie entfernen).',
  },
  invalid_credentials: {
    en: 'Invalid login or password.',
    fr: 'Identifiant ou mot de passe incorrect.',
    de: 'Benutzername oder Passwort falsch.',
  },
  too_many_attempts: {
    en: 'Too many sign-in attempts: wait 15 minutes and try again.',
    fr: 'Trop de tentatives de connexion : attendez 15 minutes puis réessayez.',
    de: 'Zu viele Anmeldeversuche: Warten Sie 15 Minuten und versuchen Sie es erneut.',
  },
  token_missing: {
    en: 'Missing or invalid token: sign in again.',
    fr: 'Jeton absent ou invalide : reconnectez-vous.',
    de: 'Token fehlt oder ist ungültig: Melden Sie sich erneut an.',
  },
  session_expired: {
    en: 'Your session has expired or was revoked: sign in again.',
    fr: 'Votre session a expiré ou a été révoquée : reconnectez-vous.',
    de: 'Ihre Sitzung ist abgelaufen oder wurde beendet: Melden Sie sich erneut an.',
  },
  token_invalid: {
    en: 'The token is invalid, expired or revoked.',
    fr: 'Le jeton est invalide, expiré ou révoqué.',
    de: 'Das Token ist ungültig, abgelaufen oder widerrufen.',
  },
  signup_closed: {
    en: 'Sign-up is closed: an administrator must create your account.',
    fr: 'Les inscriptions sont fermées : un administrateur doit créer votre compte.',
    de: 'Die Registrierung ist geschlossen: Ein Administrator muss Ihr Konto anlegen.',
  },
  sign_in_wait_account: {
    en: 'Too many failed sign-ins for this account: wait {{seconds}} seconds and try again.',
    fr: 'Trop d’échecs de connexion pour ce compte : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele fehlgeschlagene Anmeldungen für dieses Konto: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  sign_in_wait_address: {
    en: 'Too many failed sign-ins from your address: wait {{seconds}} seconds and try again.',
    fr: 'Trop d’échecs de connexion depuis votre adresse : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele fehlgeschlagene Anmeldungen von Ihrer Adresse: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  password_too_short: {
    en: 'password: must be at least {{min}} characters long.',
    fr: 'Le mot de passe doit contenir au moins {{min}} caractères.',
    de: 'Das Passwort muss mindestens {{min}} Zeichen lang sein.',
  },
  password_too_common: {
    en: 'password: this password is too common; choose another one.',
    fr: 'Ce mot de passe est trop courant : choisissez-en un autre.',
    de: 'Dieses Passwort ist zu verbreitet: Wählen Sie ein anderes.',
  },
  current_password_required: {
    en: 'currentPassword: give your current password to change it.',
    fr: 'Saisissez votre mot de passe actuel pour le changer.',
    de: 'Geben Sie Ihr aktuelles Passwort ein, um es zu ändern.',
  },
  current_password_wrong: {
    en: 'currentPassword: the current password is wrong.',
    fr: 'Le mot de passe actuel est incorrect.',
    de: 'Das aktuelle Passwort ist falsch.',
  },
  totp_on: {
    en: 'Two-step verification is on. Keep your recovery codes somewhere safe: they are shown only once.',
    fr: 'La validation en deux étapes est activée. Gardez vos codes de récupération en lieu sûr : ils ne sont affichés qu’une fois.',
    de: 'Die Zwei-Schritt-Verifizierung ist eingeschaltet. Bewahren Sie Ihre Wiederherstellungscodes sicher auf: Sie werden nur einmal angezeigt.',
  },
  totp_off: {
    en: 'Two-step verification is off.',
    fr: 'La validation en deux étapes est désactivée.',
    de: 'Die Zwei-Schritt-Verifizierung ist ausgeschaltet.',
  },
  second_factor_reset: {
    en: 'The user’s second factor was removed: they sign in with their password and set up a new one.',
    fr: 'Le second facteur de l’utilisateur a été supprimé : il se connecte avec son mot de passe et en configure un nouveau.',
    de: 'Der zweite Faktor des Benutzers wurde entfernt: Er meldet sich mit seinem Passwort an und richtet einen neuen ein.',
  },
  identity_linked: {
    en: 'The identity was linked to the account: it signs in with the provider from now on.',
    fr: 'L’identité a été liée au compte : elle se connecte désormais par le fournisseur.',
    de: 'Die Identität wurde mit dem Konto verknüpft: Sie meldet sich ab jetzt über den Anbieter an.',
  },
  identity_unlinked: {
    en: 'The link to the identity provider was removed.',
    fr: 'Le lien avec le fournisseur d’identité a été supprimé.',
    de: 'Die Verknüpfung mit dem Identitätsanbieter wurde entfernt.',
  },
  identity_request_dismissed: {
    en: 'The pending sign-in was dismissed.',
    fr: 'La connexion en attente a été ignorée.',
    de: 'Die wartende Anmeldung wurde verworfen.',
  },
  security_policy_saved: {
    en: 'Security settings saved.',
    fr: 'Paramètres de sécurité enregistrés.',
    de: 'Sicherheitseinstellungen gespeichert.',
  },
  passkey_added: {
    en: 'The passkey was added: you can sign in with it.',
    fr: 'La clé d’accès a été ajoutée : vous pouvez vous connecter avec.',
    de: 'Der Passkey wurde hinzugefügt: Sie können sich damit anmelden.',
  },
  passkey_deleted: {
    en: 'The passkey was deleted.',
    fr: 'La clé d’accès a été supprimée.',
    de: 'Der Passkey wurde gelöscht.',
  },
  session_ended: {
    en: 'That session was signed out.',
    fr: 'Cette session a été déconnectée.',
    de: 'Diese Sitzung wurde abgemeldet.',
  },
  passkey_invalid: {
    en: 'The passkey could not be checked (expired or already used request, or another site): try again.',
    fr: 'La clé d’accès n’a pas pu être vérifiée (demande expirée ou déjà utilisée, ou autre site) : réessayez.',
    de: 'Der Passkey konnte nicht geprüft werden (Anfrage abgelaufen, schon verwendet oder andere Website): Versuchen Sie es erneut.',
  },
  passkey_exists: {
    en: 'This passkey is already registered.',
    fr: 'Cette clé d’accès est déjà enregistrée.',
    de: 'Dieser Passkey ist bereits registriert.',
  },
  passkey_unknown: {
    en: 'This passkey belongs to no account here: sign in with your password, then add it again.',
    fr: 'Cette clé d’accès ne correspond à aucun compte ici : connectez-vous avec votre mot de passe, puis ajoutez-la de nouveau.',
    de: 'Dieser Passkey gehört hier zu keinem Konto: Melden Sie sich mit Ihrem Passwort an und fügen Sie ihn erneut hinzu.',
  },
  passkey_not_found: {
    en: 'No such passkey on your account.',
    fr: 'Aucune clé d’accès de ce type sur votre compte.',
    de: 'Kein solcher Passkey in Ihrem Konto.',
  },
  identity_confirmed: {
    en: 'Thank you: for 5 minutes you can change how you sign in.',
    fr: 'Merci : pendant 5 minutes, vous pouvez modifier vos moyens de connexion.',
    de: 'Danke: 5 Minuten lang können Sie Ihre Anmeldemethoden ändern.',
  },
  passkeys_off: {
    en: 'Passkeys are off on this server: its administrator turns them on by setting PUBLIC_URL (the address users reach).',
    fr: 'Les clés d’accès sont désactivées sur ce serveur : son administrateur les active en définissant PUBLIC_URL (l’adresse où les utilisateurs l’atteignent).',
    de: 'Passkeys sind auf diesem Server ausgeschaltet: Die Administration schaltet sie ein, indem sie PUBLIC_URL setzt (die Adresse, unter der die Benutzer ihn erreichen).',
  },
  passkey_unverified: {
    en: 'This passkey did not verify you (PIN, fingerprint or face) and your account needs two factors: use a passkey that does, or sign in with your password.',
    fr: 'Cette clé d’accès ne vous a pas vérifié (code PIN, empreinte ou visage) et votre compte exige deux facteurs : utilisez une clé d’accès qui le fait, ou connectez-vous avec votre mot de passe.',
    de: 'Dieser Passkey hat Sie nicht verifiziert (PIN, Fingerabdruck oder Gesicht) und Ihr Konto verlangt zwei Faktoren: Verwenden Sie einen Passkey, der das tut, oder melden Sie sich mit Ihrem Passwort an.',
  },
  passkey_verification_required: {
    en: 'Your account needs two factors and this passkey did not verify you (PIN, fingerprint or face): add one that does, such as your phone’s screen lock or a security key with a PIN.',
    fr: 'Votre compte exige deux facteurs et cette clé d’accès ne vous a pas vérifié (code PIN, empreinte ou visage) : ajoutez-en une qui le fait, comme le verrouillage d’écran de votre téléphone ou une clé de sécurité avec code PIN.',
    de: 'Ihr Konto verlangt zwei Faktoren und dieser Passkey hat Sie nicht verifiziert (PIN, Fingerabdruck oder Gesicht): Fügen Sie einen hinzu, der das tut, etwa die Bildschirmsperre Ihres Telefons oder einen Sicherheitsschlüssel mit PIN.',
  },
  identity_password_wrong: {
    en: 'This password is wrong: enter the one you sign in with.',
    fr: 'Ce mot de passe est incorrect : saisissez celui avec lequel vous vous connectez.',
    de: 'Dieses Passwort ist falsch: Geben Sie das Passwort ein, mit dem Sie sich anmelden.',
  },
  too_many_sign_ups: {
    en: 'Too many accounts created from your address: wait {{seconds}} seconds and try again.',
    fr: 'Trop de comptes créés depuis votre adresse : attendez {{seconds}} secondes puis réessayez.',
    de: 'Zu viele Konten von Ihrer Adresse angelegt: Warten Sie {{seconds}} Sekunden und versuchen Sie es erneut.',
  },
  session_not_found: {
    en: 'No such session: it may have ended already.',
    fr: 'Session introuvable : elle est peut-être déjà terminée.',
    de: 'Keine solche Sitzung: Sie ist vielleicht schon beendet.',
  },
  account_disabled: {
    en: 'This account is disabled: ask your administrator.',
    fr: 'Ce compte est désactivé : contactez votre administrateur.',
    de: 'Dieses Konto ist deaktiviert: Wenden Sie sich an Ihre Administration.',
  },
  second_factor_required: {
    en: 'Enter the 6-digit code of your authenticator app, or one of your recovery codes.',
    fr: 'Saisissez le code à 6 chiffres de votre application d’authentification, ou l’un de vos codes de récupération.',
    de: 'Geben Sie den 6-stelligen Code Ihrer Authenticator-App oder einen Ihrer Wiederherstellungscodes ein.',
  },
  second_factor_wrong: {
    en: 'This verification code is wrong or was already used: enter the current code of your app, or an unused recovery code.',
    fr: 'Ce code de validation est faux ou a déjà servi : saisissez le code actuel de votre application, ou un code de récupération inutilisé.',
    de: 'Dieser Bestätigungscode ist falsch oder wurde schon verwendet: Geben Sie den aktuellen Code Ihrer App oder einen unbenutzten Wiederherstellungscode ein.',
  },
  second_factor_passkey: {
    en: 'Your organisation requires a second factor for your role: sign in with your passkey.',
    fr: 'Votre organisation exige un second facteur pour votre rôle : connectez-vous avec votre clé d’accès.',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor: Melden Sie sich mit Ihrem Passkey an.',
  },
  passkey_required_by_policy: {
    en: 'Your organisation requires a second factor for your role and this passkey is your last one: add another first (an administrator can reset it).',
    fr: 'Votre organisation exige un second facteur pour votre rôle et cette clé d’accès est la dernière : ajoutez-en une autre d’abord (un administrateur peut la réinitialiser).',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor und dieser Passkey ist Ihr letzter: Fügen Sie zuerst einen weiteren hinzu (ein Administrator kann ihn zurücksetzen).',
  },
  second_factor_setup_required: {
    en: 'Your organisation requires a second factor for your role: set up two-step verification or a passkey on your account page first.',
    fr: 'Votre organisation exige un second facteur pour votre rôle : configurez d’abord la validation en deux étapes ou une clé d’accès sur la page de votre compte.',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor: Richten Sie zuerst auf Ihrer Kontoseite die Zwei-Schritt-Verifizierung oder einen Passkey ein.',
  },
  confirm_identity: {
    en: 'Confirm it’s you first: give your password or a code again.',
    fr: 'Confirmez d’abord que c’est bien vous : saisissez de nouveau votre mot de passe ou un code.',
    de: 'Bestätigen Sie zuerst, dass Sie es sind: Geben Sie Ihr Passwort oder einen Code erneut ein.',
  },
  totp_already_on: {
    en: 'Two-step verification is already on: turn it off first to set it up again.',
    fr: 'La validation en deux étapes est déjà activée : désactivez-la d’abord pour la configurer à nouveau.',
    de: 'Die Zwei-Schritt-Verifizierung ist bereits eingeschaltet: Schalten Sie sie zuerst aus, um sie neu einzurichten.',
  },
  totp_not_started: {
    en: 'Start the setup of two-step verification first.',
    fr: 'Commencez d’abord la configuration de la validation en deux étapes.',
    de: 'Beginnen Sie zuerst mit der Einrichtung der Zwei-Schritt-Verifizierung.',
  },
  totp_not_on: {
    en: 'Two-step verification is not on.',
    fr: 'La validation en deux étapes n’est pas activée.',
    de: 'Die Zwei-Schritt-Verifizierung ist nicht eingeschaltet.',
  },
  totp_code_wrong: {
    en: 'This code is wrong: enter the 6-digit code your authenticator app shows now.',
    fr: 'Ce code est faux : saisissez le code à 6 chiffres que votre application d’authentification affiche maintenant.',
    de: 'Dieser Code ist falsch: Geben Sie den 6-stelligen Code ein, den Ihre Authenticator-App jetzt anzeigt.',
  },
  totp_required_by_policy: {
    en: 'Your organisation requires a second factor for your role: two-step verification stays on (an administrator can reset it).',
    fr: 'Votre organisation exige un second facteur pour votre rôle : la validation en deux étapes reste activée (un administrateur peut la réinitialiser).',
    de: 'Ihre Organisation verlangt für Ihre Rolle einen zweiten Faktor: Die Zwei-Schritt-Verifizierung bleibt eingeschaltet (ein Administrator kann sie zurücksetzen).',
  },
} satisfies Partial<Record<ServerMessageCode, Texts>>;
