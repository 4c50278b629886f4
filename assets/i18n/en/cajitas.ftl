# Cajitas: every text the bot shows, in English.
# Message ids are shared with assets/i18n/es/cajitas.ftl; a test checks both have the same
# ids and attributes.

check = Check!
