FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# The interface's catalogues (locale/*.po) compiled to .mo; gettext only for this step.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends gettext >/dev/null \
    && django-admin compilemessages --ignore=var --verbosity 0 \
    && apt-get purge -y -qq gettext >/dev/null && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home armlist && mkdir -p var && chown -R armlist var
USER armlist
EXPOSE 8000
